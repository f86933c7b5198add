"""The player's commands: ``bedside listener add``, ``list`` and ``remove``, ``bedside pair``,
``bedside replay``; the first listener.

The CLI runs outside the service, so it talks to JetStream directly, through the same
modules the service uses (``listeners`` for tokens, ``replay`` for projections).
"""

import asyncio
import datetime
from typing import Annotated

import segno
import typer
from bedside_contracts import subjects
from bedside_contracts.player import ListenerList, ListenerRemoved, ListenersRequest, RemoveListener
from bedside_runtime.bus import call_once, connected
from bedside_runtime.cli_args import checked_id
from bedside_runtime.errors import BusUnreachable, CallFailed, RemoteFailure
from bedside_runtime.settings import Settings
from cryptography import x509

from bedside_player.lan import LanFiles, fingerprint
from bedside_player.listeners import (
    DEFAULT_LISTENER,
    PAIRING_TTL_S,
    ListenerExists,
    Listeners,
    Pairing,
    page_url,
    pairing_url,
)
from bedside_player.replay import rebuild, snapshots, write_snapshot

listener_app = typer.Typer(help="Listeners and their tokens.", no_args_is_help=True)


async def _add(settings: Settings, name: str) -> str:
    async with connected(settings.servers) as client:
        listeners = await Listeners.open(client.jetstream(), settings.stream_replicas)
        return await listeners.create(name)


@listener_app.command("add")
def add(
    name: Annotated[
        str, typer.Argument(help="the listener's id: letters, digits, - and _", callback=checked_id)
    ],
) -> None:
    """Make a listener and print their token and the page URL that carries it."""
    settings = Settings()
    try:
        token = asyncio.run(_add(settings, name))
    except (ListenerExists, BusUnreachable) as error:
        typer.secho(str(error), err=True, fg="red")
        raise typer.Exit(1) from None
    typer.echo(f"listener {name}")
    typer.echo(f"token    {token}")
    typer.echo(f"page     {page_url(served_base_url(settings), name, token)}")


def _failed(error: CallFailed) -> typer.Exit:
    typer.secho(error.failure.error if isinstance(error, RemoteFailure) else str(error), err=True, fg="red")
    return typer.Exit(1)


@listener_app.command("list")
def list_listeners() -> None:
    """The listeners there are (those removed are not listed), one a line."""
    settings = Settings()
    try:
        found = asyncio.run(
            call_once(
                settings.servers,
                subjects.PLAYER_LISTENERS,
                ListenersRequest(),
                ListenerList,
                timeout_s=settings.request_timeout_s,
            )
        )
    except CallFailed as error:
        raise _failed(error) from None
    if not found.listeners:
        typer.echo("no listeners yet; add one with `bedside listener add NAME`")
    for name in found.listeners:
        typer.echo(name)


@listener_app.command("remove")
def remove(
    name: Annotated[
        str, typer.Argument(help="the listener's id (see `bedside listener list`)", callback=checked_id)
    ],
) -> None:
    """Remove a listener: their token, devices and pairing codes stop working at once, and each
    of their books' streams ends with their retirement (the events stay; the name is not given
    again). The last listener is not removed."""
    settings = Settings()
    try:
        removed = asyncio.run(
            call_once(
                settings.servers,
                subjects.PLAYER_REMOVE_LISTENER,
                RemoveListener(listener=name),
                ListenerRemoved,
                timeout_s=settings.request_timeout_s,
            )
        )
    except CallFailed as error:
        raise _failed(error) from None
    books = len(removed.books)
    typer.echo(
        f"removed {name}: their token and {removed.devices} device{'' if removed.devices == 1 else 's'} "
        f"no longer work; their history in {books} book{'' if books == 1 else 's'} stays in the stream"
    )


async def _pair(settings: Settings, listener: str, ttl_s: float) -> tuple[str, Pairing] | None:
    async with connected(settings.servers) as client:
        listeners = await Listeners.open(client.jetstream(), settings.stream_replicas)
        if await listeners.record(listener) is None:
            return None
        return await listeners.create_pairing(listener, ttl_s)


def served_base_url(settings: Settings) -> str:
    """The address the last ``bedside up`` served the page on, else what the settings say."""
    path = settings.page_url_file
    return path.read_text().strip() if path.is_file() else settings.page_base_url


def pair_command(
    listener: Annotated[str, typer.Option(help="the listener the device will act for")] = DEFAULT_LISTENER,
    minutes: Annotated[int, typer.Option(min=1, max=60, help="how long the code stays usable")] = (
        PAIRING_TTL_S // 60
    ),
    url: Annotated[
        str | None, typer.Option(help="the page's address as the device reaches it, e.g. a reverse proxy's")
    ] = None,
) -> None:
    """Show a QR code (and a link) with a one-time pairing code: scanning it pairs a phone."""
    settings = Settings()
    try:
        made = asyncio.run(_pair(settings, listener, minutes * 60))
    except BusUnreachable as error:
        typer.secho(str(error), err=True, fg="red")
        raise typer.Exit(1) from None
    if made is None:
        typer.secho(
            f"there is no listener {listener!r} (bedside listener add NAME makes one)", err=True, fg="red"
        )
        raise typer.Exit(1)
    code, pairing = made
    base = (url or served_base_url(settings)).rstrip("/") + "/"
    link = pairing_url(base, code)
    segno.make(link, error="m").terminal(compact=True)
    until = datetime.datetime.fromtimestamp(pairing.expires_at, datetime.UTC).strftime("%H:%M UTC")
    typer.echo(f"page     {link}")
    typer.echo(f"code     {code}  (pairs one device with {listener}, once, until {until})")
    authority = LanFiles(settings.lan_dir).ca_cert
    if base.startswith("https:") and url is None and authority.is_file():
        sha256 = fingerprint(x509.load_pem_x509_certificate(authority.read_bytes()))
        typer.echo(f"trust    first time on a device: {base}bedside-ca.crt (SHA-256 {sha256})")


async def _replay(settings: Settings, use_snapshot: bool, save: bool) -> list[str]:
    async with connected(settings.servers) as client:
        js = client.jetstream()
        projections, report = await rebuild(client, use_snapshot=use_snapshot)
        lines = [report.line()]
        if save:
            written = await write_snapshot(await snapshots(js, settings.stream_replicas), projections)
            lines.append(f"snapshot of {written} projections written through seq {projections.through_seq}")
        return lines


def replay_command(
    snapshot: Annotated[bool, typer.Option("--from-snapshot", help="start from the KV snapshot")] = False,
    save: Annotated[bool, typer.Option("--save-snapshot", help="write a KV snapshot afterwards")] = False,
) -> None:
    """Rebuild every listener's projection from the player stream and print counts and time."""
    try:
        lines = asyncio.run(_replay(Settings(), snapshot, save))
    except BusUnreachable as error:
        typer.secho(str(error), err=True, fg="red")
        raise typer.Exit(1) from None
    for line in lines:
        typer.echo(line)


def register(app: typer.Typer) -> None:
    app.add_typer(listener_app, name="listener")
    app.command("pair")(pair_command)
    app.command("replay")(replay_command)


async def first_start(settings: Settings, servers: list[str]) -> list[str]:
    """Make the default listener when there is none; the page URL with its token."""
    async with connected(servers) as client:
        listeners = await Listeners.open(client.jetstream(), settings.stream_replicas)
        names = await listeners.names()
        if not names:
            await listeners.create(DEFAULT_LISTENER)
            names = [DEFAULT_LISTENER]
        name = DEFAULT_LISTENER if DEFAULT_LISTENER in names else names[0]
        record = await listeners.record(name)
    if record is None:
        return []
    return [f"page       {page_url(settings.page_base_url, name, record.token)}"]
