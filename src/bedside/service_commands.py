"""Commands and first-start steps that each service contributes to the CLI.

A service's ``bedside_<name>.cli`` module may define ``register(app)`` to add commands
and ``async first_start(settings, servers) -> list[str]`` to run once every service is
up (the sample book, the default listener), returning lines to print.
"""

import importlib
from collections.abc import Awaitable, Callable
from types import ModuleType

import typer
from bedside_contracts.subjects import SERVICES
from bedside_runtime.settings import Settings


def _cli_modules() -> list[ModuleType]:
    modules = []
    for name in SERVICES:
        try:
            modules.append(importlib.import_module(f"bedside_{name}.cli"))
        except ModuleNotFoundError as error:
            if error.name != f"bedside_{name}.cli":
                raise
    return modules


def register_service_commands(app: typer.Typer) -> None:
    for module in _cli_modules():
        register: Callable[[typer.Typer], None] | None = getattr(module, "register", None)
        if register is not None:
            register(app)


async def run_first_start_steps(settings: Settings, servers: list[str]) -> list[str]:
    lines: list[str] = []
    for module in _cli_modules():
        step: Callable[[Settings, list[str]], Awaitable[list[str]]] | None = getattr(
            module, "first_start", None
        )
        if step is not None:
            lines += await step(settings, servers)
    return lines
