"""No import cycle anywhere in the app or the engine, an import inside a function counting as any other.

`lint-imports` (the contracts in pyproject.toml) checks the layers and, with
its `acyclic_siblings` contract, cycles between the modules of each package;
it does not see a cycle through a package's own `__init__` (a package that
imports one of its modules, which imports the package back). This test looks
at every module, packages included, in the same graph (grimp's, which reads
imports wherever they are written).
"""

from __future__ import annotations

import grimp

PACKAGES = ("lagoon_tui", "rules")


def import_graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def cycles(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Each import (importer, imported) that is part of a cycle: the imported module leads back to the importer."""
    return sorted(
        (importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
        if graph.chain_exists(importer=imported, imported=importer)
    )


def test_no_module_of_the_app_or_the_engine_leads_back_to_itself():
    graph = import_graph()
    assert len(graph.modules) > 100 and "lagoon_tui.screens.load" in graph.modules, "read no app"
    assert cycles(graph) == []


def test_an_import_inside_a_function_is_in_the_graph():
    """(`run_app` imports the app only when it runs, so `lagoon --help` stays quick.)"""
    graph = import_graph()
    assert "lagoon_tui.app" in graph.find_modules_directly_imported_by("lagoon_tui.cli_start")


def test_a_cycle_is_found_through_a_package_or_between_two_modules():
    """The cycle the Load screen made (it borrowed words from the command, which opens the app, which opens the
    Load screen), and one through a package that `acyclic_siblings` misses."""
    graph = import_graph()
    graph.add_import(importer="lagoon_tui.screens.load", imported="lagoon_tui.cli_saves")
    assert ("lagoon_tui.screens.load", "lagoon_tui.cli_saves") in cycles(graph)
    graph = import_graph()
    graph.add_import(importer="lagoon_tui.screens", imported="lagoon_tui.screens.confirm")
    graph.add_import(importer="lagoon_tui.screens.confirm", imported="lagoon_tui.screens")
    both_ways = {
        ("lagoon_tui.screens", "lagoon_tui.screens.confirm"),
        ("lagoon_tui.screens.confirm", "lagoon_tui.screens"),
    }
    assert both_ways <= set(cycles(graph))
