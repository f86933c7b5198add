"""The ``bedside`` command: run the system, and talk to it."""

import asyncio
import importlib
import os
import signal
import time
from collections.abc import Callable, Mapping
from types import FrameType
from typing import Annotated

import typer
from bedside_contracts.common import Health
from bedside_contracts.subjects import SERVICES
from bedside_player.lan import LanError, lan_settings, served_environment
from bedside_player.migration import CannotMigrate, NothingToMigrate, migrate
from bedside_runtime.bus import connected
from bedside_runtime.errors import BusUnreachable
from bedside_runtime.health import check, wait_until_healthy
from bedside_runtime.nats_server import (
    NatsServer,
    NatsServerConfig,
    NatsServerError,
    embedded_server,
    port_is_open,
)
from bedside_runtime.settings import Settings

from bedside.processes import (
    BUS,
    CHILD_RECORD,
    AlreadyRunning,
    ChildRecord,
    GaveUp,
    ServiceProcesses,
    Supervisor,
    UpLock,
    running_pids,
    stop_bus_started_with,
)
from bedside.service_commands import register_service_commands, run_first_start_steps

app = typer.Typer(help="Bedside: a listening companion for audiobooks.", no_args_is_help=True)
migrate_app = typer.Typer(help="Bring what an earlier version stored up to this one.", no_args_is_help=True)
app.add_typer(migrate_app, name="migrate")

STARTUP_TIMEOUT_S = 120.0
PAIR_HINT = "pair       a phone or a tablet: `bedside pair` shows a code to scan\n"


def fail(message: str) -> typer.Exit:
    typer.secho(message, err=True, fg=typer.colors.RED)
    return typer.Exit(code=1)


def on_the_home_network(settings: Settings, address: str | None, env: dict[str, str]) -> Settings:
    """HTTPS on ``address`` with certificates made or renewed; ``env`` gets what the player needs."""
    try:
        served, lines = lan_settings(settings, address)
    except LanError as error:
        raise fail(str(error)) from None
    for line in lines:
        typer.echo(line)
    env |= served_environment(served)
    return served


def refuse_a_taken_page_port(settings: Settings) -> None:
    """Fail before anything starts: the player alone would find out, and only say so in its log."""
    if port_is_open(settings.http_port, settings.page_host):
        raise fail(
            f"port {settings.http_port} (the page) is already in use: is another Bedside running? "
            "Stop it, or set BEDSIDE_HTTP_PORT to another port."
        )


def start_the_bus(settings: Settings, env: dict[str, str]) -> NatsServer:
    """The embedded nats-server, started and not yet ready; the services are told its address."""
    server = embedded_server(settings.nats_store_dir, settings.nats_port)
    server.start(wait=False)
    env["NATS_URL"] = server.url
    pid = server.process.pid if server.process is not None else "?"
    typer.echo(f"bus        nats-server {server.url} pid {pid} (JetStream in {settings.nats_store_dir})")
    return server


def say_which_are_ready(seen: Mapping[str, Health | None], processes: ServiceProcesses) -> None:
    for name, health in seen.items():
        state = f"ready  pid {health.pid}" if health and health.ready else "NOT READY"
        typer.echo(f"{name:<10} {state}  (log: {processes.log_dir / name}.log)")
    if not all(h is not None and h.ready for h in seen.values()):
        raise fail("not every service became ready; see the logs above")


def stop_on_signals(request_stop: Callable[[int, FrameType | None], None]) -> None:
    """Ctrl-C, a kill and the terminal closing (SIGHUP) ask ``up`` to stop everything; not SIGHUP
    under nohup, which asked for it to be ignored."""
    hangup = () if signal.getsignal(signal.SIGHUP) is signal.SIG_IGN else (signal.SIGHUP,)
    for stop_signal in (signal.SIGINT, signal.SIGTERM, *hangup):
        signal.signal(stop_signal, request_stop)


def taken_over(settings: Settings) -> ChildRecord:
    """The record of this ``up``'s processes, once what an ``up`` killed outright left running is stopped."""
    record = ChildRecord(settings.data_dir / CHILD_RECORD)
    left = record.stop_leftovers()
    bus = NatsServerConfig(store_dir=settings.nats_store_dir, port=settings.nats_port, monitor_port=0)
    if settings.nats_url is None and stop_bus_started_with(bus.path):  # NATS_URL's bus is not ours
        left.append(BUS)
    if left:
        typer.echo(f"stopped what a `bedside up` killed outright had left running: {', '.join(left)}")
    return record


def keep_running(supervisor: Supervisor, record: ChildRecord, stopping: Callable[[], bool]) -> None:
    """Until Ctrl-C: start again what exits on its own, saying when and why (ADR 49)."""
    while not stopping():
        for line in supervisor.tend(time.monotonic()):
            typer.echo(f"{time.strftime('%H:%M:%S')} {line}")
        record.write(running_pids(supervisor.processes, supervisor.bus))
        time.sleep(0.2)


@app.command()
def up(
    lan: Annotated[
        bool,
        typer.Option(
            "--lan",
            help="serve the page over HTTPS on the home network, with a local certificate authority; "
            "then `bedside pair` pairs a phone",
        ),
    ] = False,
    address: Annotated[
        str | None,
        typer.Option(
            help="with --lan: the address to serve on (default: this machine's home-network address)"
        ),
    ] = None,
) -> None:
    """Start the bus (unless NATS_URL is set) and every service; stop them all on Ctrl-C.

    Ports: BEDSIDE_NATS_PORT (default 4222) and BEDSIDE_HTTP_PORT (default 8787).
    """
    settings = Settings()
    env = dict(os.environ)
    if lan:
        settings = on_the_home_network(settings, address, env)
    lock = UpLock(settings.data_dir / "up.lock")
    try:
        lock.acquire()
    except AlreadyRunning as error:
        raise fail(str(error)) from None
    record = taken_over(settings)
    settings.page_url_file.write_text(settings.page_base_url)
    server = None
    processes = ServiceProcesses(settings, env)
    stopping = False

    def request_stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    stop_on_signals(request_stop)
    try:
        refuse_a_taken_page_port(settings)
        if settings.nats_url is None:
            server = start_the_bus(settings, env)
            # recorded before it answers: an `up` killed meanwhile leaves the next one a bus to stop
            record.write(running_pids(processes, server))
            server.wait_ready()
        else:
            typer.echo(f"bus        {settings.nats_url} (external)")
        servers = [env["NATS_URL"]] if server else settings.servers
        for name in SERVICES:
            record.write(running_pids(processes, server))  # the bus, and each service started so far
            processes.start(name)
        record.write(running_pids(processes, server))
        say_which_are_ready(asyncio.run(wait_until_healthy(servers, SERVICES, STARTUP_TIMEOUT_S)), processes)
        for line in asyncio.run(run_first_start_steps(settings, servers)):
            typer.echo(line)
        typer.echo(f"{PAIR_HINT if lan else ''}Bedside is up. Ctrl-C stops everything.")
        keep_running(Supervisor(processes, server), record, lambda: stopping)
    except NatsServerError as error:
        raise fail(str(error)) from None
    except GaveUp as error:
        raise fail(str(error)) from None
    finally:
        processes.stop()
        if server is not None:
            server.stop()
        record.clear()
        lock.release()
    typer.echo("Bedside stopped.")


@app.command()
def serve(name: Annotated[str, typer.Argument(help="one of: " + ", ".join(SERVICES))]) -> None:
    """Run one service in this process (what `bedside up` runs for each)."""
    if name not in SERVICES:
        raise fail(f"unknown service {name!r}; choose one of {', '.join(SERVICES)}")
    module = importlib.import_module(f"bedside_{name}.main")
    # a service may name the event loop it runs on (the player: uvloop, ADR 38)
    with asyncio.Runner(loop_factory=getattr(module, "loop_factory", None)) as runner:
        runner.run(module.serve(Settings()))


def _health_row(name: str, health: Health | None, running: dict[str, int]) -> str:
    """One service's health; one that does not answer is DOWN, or NOT ANSWERING while the process
    ``up`` started for it still runs (stopped, or stuck)."""
    if health is None and name in running:
        return f"{name:<10} NOT ANSWERING  pid {running[name]} runs but does not answer (stopped or stuck)"
    if health is None:
        return f"{name:<10} DOWN"
    ready = "healthy" if health.ready else "starting"
    return (
        f"{name:<10} {ready:<9} v{health.version}  pid {health.pid}  "
        f"up {health.uptime_s:.0f}s  {health.detail}".rstrip()
    )


@app.command()
def status() -> None:
    """Ask each service over NATS for its health, version and uptime."""
    settings = Settings()
    running = ChildRecord(settings.data_dir / CHILD_RECORD).running()  # what a local `up` started

    async def ask() -> dict[str, Health | None]:
        async with connected(settings.servers) as client:
            return {name: await check(client, name) for name in SERVICES}

    try:
        healths = asyncio.run(ask())
    except BusUnreachable as error:
        raise fail(str(error)) from None
    for name, health in healths.items():
        typer.echo(_health_row(name, health, running))
    if None in healths.values():
        raise typer.Exit(code=1)


@app.command("eval-search")
def eval_search() -> None:
    """Recall@1/@4 of dense, sparse and hybrid search on the corpus books (needs the shared corpus)."""
    from bedside_evaluation.eval_search import main  # noqa: PLC0415 - loads the model; only when asked

    raise typer.Exit(code=main())


@app.command("eval-recap")
def eval_recap(parts: list[str] = typer.Argument(None, help="development, held_out")) -> None:  # noqa: B008
    """The keyless "last chapter" recap on Black Beauty and the sample book (needs the shared corpus)."""
    from bedside_evaluation.eval_recap import main  # noqa: PLC0415 - loads the model; only when asked

    raise typer.Exit(code=main(parts or ["development", "held_out"]))


PROGRESS_EVERY = 10_000


async def _migrate_player_stream(servers: list[str], partitions: int) -> list[str]:
    shown = 0

    def progress(copied: int) -> None:
        nonlocal shown
        if copied - shown >= PROGRESS_EVERY:
            shown = copied
            typer.echo(f"copied {copied} events so far")

    async with connected(servers) as client:
        migrated = await migrate(client, partitions, progress=progress)
    return migrated.lines()


@migrate_app.command("player-stream")
def migrate_player_stream() -> None:
    """Copy the player's events from before partitions (player.<listener>.<book>) to their
    partitioned subjects, then let this version's player start on the stream (ADR 42).

    Run it while no player copy runs (on its own data directory, `bedside up` must be stopped);
    stopped half way, it goes on from where it was when run again.
    """
    settings = Settings()
    lock = UpLock(settings.data_dir / "up.lock")
    server = None
    try:
        if settings.nats_url is None:
            try:
                lock.acquire()
            except AlreadyRunning as error:
                raise fail(
                    f"{error} Stop it first: nothing may write to the stream while it is migrated"
                ) from None
            server = embedded_server(settings.nats_store_dir, settings.nats_port)
            server.start()
        servers = [server.url] if server is not None else settings.servers
        typer.echo(
            f"migrating the player stream on {', '.join(servers)} to {settings.player_partitions} partitions"
        )
        for line in asyncio.run(_migrate_player_stream(servers, settings.player_partitions)):
            typer.echo(line)
    except NothingToMigrate as nothing:
        typer.echo(str(nothing))
    except (CannotMigrate, BusUnreachable, NatsServerError) as error:
        raise fail(str(error)) from None
    finally:
        if server is not None:
            server.stop()
        lock.release()


register_service_commands(app)


def main() -> None:
    app()
