"""Listeners and what lets a caller act for one, in the LISTENERS KV bucket. The one place for that rule.

``listener.<name>`` holds the listener's record; ``token.<sha256>`` maps a token's hash to
its listener, so a bearer token finds its listener without a scan. A device credential
(the page's cookie) is ``device.<sha256>`` the same way, and a pairing code waiting to be
traded for one is ``pairing.<sha256>``. Only hashes are keys: reading the bucket gives no
secret that opens the API. The CLI and the service both use this module.

A token found is remembered only while this process watches the token keys
(``follow_revocations``): a token deleted by any process (a listener removed through another
player copy) is forgotten as the deletion arrives, instead of being accepted until a restart.
The same watch learns which listeners are removed: a removal marks the record first and then
revokes, so no credential left behind by a removal stopped half way, or made while it swept,
acts for them.
"""

import asyncio
import contextlib
import hashlib
import secrets
import time

import structlog
from bedside_contracts import subjects
from bedside_contracts.common import Contract, Name
from bedside_runtime.streams import key_value_bucket, live_keys
from bedside_runtime.tasks import cancel_and_wait
from nats.errors import Error as NatsError
from nats.js import JetStreamContext
from nats.js.api import KeyValueConfig, StorageType
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue
from pydantic import Field

log = structlog.get_logger("bedside.player.listeners")

DEFAULT_LISTENER = "me"
PAIRING_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
PAIRING_TTL_S = 600
"""Long enough to find the phone and scan; short enough that a code seen on a screen goes stale."""


class ListenerRecord(Contract):
    listener: Name
    token: str
    """Kept so that ``bedside up`` can print the page URL again; the bus is the trust boundary."""
    retired: bool = False
    """Removed (``bedside listener remove``): kept so that the name, whose events stay in the
    stream, is not given to someone else; nothing acts for it any more."""


class Pairing(Contract):
    listener: Name
    expires_at: float = Field(description="the server's wall clock, seconds since the epoch")

    def usable(self, now: float) -> bool:
        return now < self.expires_at


class ListenerExists(Exception):
    pass


class NoSuchListener(Exception):
    pass


def new_pairing_code() -> str:
    letters = "".join(secrets.choice(PAIRING_ALPHABET) for _ in range(10))
    return f"{letters[:5]}-{letters[5:]}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Listeners:
    def __init__(self, js: JetStreamContext, kv: KeyValue) -> None:
        self.js = js
        self.kv = kv
        self.known: dict[str, str] = {}
        """Token hash -> listener, for tokens looked up while the revocations were followed."""
        self.revoked: set[str] = set()
        """Token hashes seen deleted (tokens are never reused): a lookup that read one just before
        its deletion arrived does not remember it."""
        self.removed: set[str] = set()
        """Listeners whose record says removed: read as the watch begins, then as it sees them."""
        self._watchers: list[KeyValue.KeyWatcher] = []
        self._removed_read = False
        """Every record there was when the watch began has been read: ``removed`` is whole."""
        self._following: list[asyncio.Task[None]] = []

    @classmethod
    async def open(cls, js: JetStreamContext, replicas: int = 1) -> "Listeners":
        config = KeyValueConfig(
            bucket=subjects.LISTENERS_BUCKET, history=1, storage=StorageType.FILE, replicas=replicas
        )
        return cls(js, await key_value_bucket(js, config))

    async def follow_revocations(self) -> None:
        """Watch the token keys and the records: forget each token as it is deleted, and learn each
        listener removed (what the service runs). The records there are now are read at once."""
        self._removed_read = False
        self._watchers = [await self.kv.watch(keys) for keys in ("token.>", "listener.>")]
        self._following = [asyncio.create_task(self._forget_revoked(w)) for w in self._watchers]
        # the records there are, read once: the watch's first pass may end after its marker says so
        for key in await live_keys(self.js, subjects.LISTENERS_BUCKET, under="listener."):
            stored = await self._stored(key.removeprefix("listener."))
            if stored is not None and stored.retired:
                self.removed.add(stored.listener)
        self._removed_read = True

    @property
    def remembering(self) -> bool:
        return bool(self._following) and not any(task.done() for task in self._following)

    async def _forget_revoked(self, watcher: KeyValue.KeyWatcher) -> None:
        try:
            async for entry in watcher:
                if entry is None:  # what there was when the watch began has all come
                    continue
                if entry.key.startswith("listener."):
                    if entry.value and ListenerRecord.model_validate_json(entry.value).retired:
                        self.removed.add(entry.key.removeprefix("listener."))
                elif entry.operation is not None:  # a token deleted or purged
                    hashed = entry.key.removeprefix("token.")
                    self.revoked.add(hashed)
                    self.known.pop(hashed, None)
        except Exception as error:  # the service goes on, reading every token from the bucket
            log.warning("token deletions are no longer followed", error=repr(error))
        finally:  # deletions are no longer seen: nothing remembered may be trusted
            self.known.clear()
            self.removed.clear()

    async def stop(self) -> None:
        await cancel_and_wait(*self._following)
        for watcher in self._watchers:
            with contextlib.suppress(NatsError):
                await watcher.stop()  # type: ignore[no-untyped-call]

    async def create(self, listener: str) -> str:
        """Make ``listener`` with a fresh token and return the token.

        The token's index is written before the record: a making stopped between them leaves an index
        no one holds the token of, and the name free to be made again; the other way round it left a
        listener no token opened, whose name was taken."""
        token = secrets.token_urlsafe(24)
        record = ListenerRecord(listener=listener, token=token)
        token_key = f"token.{token_hash(token)}"
        await self.kv.put(token_key, listener.encode())
        try:
            await self.kv.create(f"listener.{listener}", record.model_dump_json().encode())
        except KeyWrongLastSequenceError as error:  # the name is taken
            with contextlib.suppress(NatsError):
                await self.kv.delete(token_key)
            stored = await self._stored(listener)
            if stored is not None and stored.retired:
                raise ListenerExists(
                    f"a listener named {listener!r} was removed, and their history stays under that "
                    "name; choose another name"
                ) from error
            raise ListenerExists(f"a listener named {listener!r} exists already") from error
        return token

    async def _stored(self, listener: str) -> ListenerRecord | None:
        try:
            entry = await self.kv.get(f"listener.{listener}")
        except KeyNotFoundError:
            return None
        return ListenerRecord.model_validate_json(entry.value or b"{}")

    async def record(self, listener: str) -> ListenerRecord | None:
        """The listener's record; None for one there is not, or one removed."""
        stored = await self._stored(listener)
        return None if stored is None or stored.retired else stored

    async def names(self) -> list[str]:
        """The listeners there are, not those removed."""
        keys = await live_keys(self.js, subjects.LISTENERS_BUCKET, under="listener.")
        named = sorted(k.removeprefix("listener.") for k in keys)
        return [name for name in named if await self.record(name) is not None]

    async def retire(self, listener: str) -> int:
        """Keep ``listener``'s record as removed and revoke everything that acts for them: the
        token, each device credential, any pairing code not yet used. How many devices lost theirs.

        The record is marked first, on the revision read (of two removals at once only one says it
        removed); what a removal stopped half way leaves, or what is made while it sweeps, is refused
        by the mark (``_acts``)."""
        key = f"listener.{listener}"
        try:
            entry = await self.kv.get(key)
        except KeyNotFoundError:
            raise NoSuchListener(f"there is no listener {listener!r}") from None
        record = ListenerRecord.model_validate_json(entry.value or b"{}")
        if record.retired or entry.revision is None:
            raise NoSuchListener(f"there is no listener {listener!r}")
        retired = record.model_copy(update={"retired": True})
        try:
            await self.kv.update(key, retired.model_dump_json().encode(), last=entry.revision)
        except KeyWrongLastSequenceError:
            raise NoSuchListener(f"{listener!r} was removed meanwhile") from None
        self.removed.add(listener)
        await self.kv.delete(f"token.{token_hash(record.token)}")
        self.known = {hashed: name for hashed, name in self.known.items() if name != listener}
        devices = 0
        for kind in ("device.", "pairing."):
            for held in await live_keys(self.js, subjects.LISTENERS_BUCKET, under=kind):
                try:
                    value = (await self.kv.get(held)).value or b""
                except KeyNotFoundError:
                    continue
                if value.decode() == listener if kind == "device." else _pairs_with(value, listener):
                    await self.kv.delete(held)
                    devices += kind == "device."
        return devices

    async def listener_for(self, token: str) -> str | None:
        """The listener a token belongs to, or None. Found tokens are remembered while the
        revocations are followed (tokens are never reused); otherwise read each time."""
        hashed = token_hash(token)
        if hashed in self.known:
            return await self._acts(self.known[hashed])
        try:
            entry = await self.kv.get(f"token.{hashed}")
        except KeyNotFoundError:
            return None
        listener = (entry.value or b"").decode()
        if self.remembering and hashed not in self.revoked:
            self.known[hashed] = listener
        return await self._acts(listener)

    async def issue_device(self, listener: str) -> str:
        """A fresh device credential for ``listener``: what the page keeps in its cookie."""
        credential = secrets.token_urlsafe(32)
        await self.kv.put(f"device.{token_hash(credential)}", listener.encode())
        return credential

    async def listener_for_device(self, credential: str) -> str | None:
        """Not remembered like tokens: a device credential can be revoked, and is read each time."""
        try:
            entry = await self.kv.get(f"device.{token_hash(credential)}")
        except KeyNotFoundError:
            return None
        return await self._acts((entry.value or b"").decode())

    async def _acts(self, listener: str) -> str | None:
        """``listener``, unless there is none or they were removed: known from the watch while it
        runs (no read on the busiest routes), read from their record otherwise."""
        if not listener:
            return None
        if self.remembering and self._removed_read:
            return None if listener in self.removed else listener
        return listener if await self.record(listener) is not None else None

    async def revoke_device(self, credential: str) -> None:
        await self.kv.delete(f"device.{token_hash(credential)}")

    async def create_pairing(self, listener: str, ttl_s: float = PAIRING_TTL_S) -> tuple[str, Pairing]:
        """A one-time code that pairs one device with ``listener`` until it expires."""
        code = new_pairing_code()
        pairing = Pairing(listener=listener, expires_at=time.time() + ttl_s)
        await self.kv.create(f"pairing.{token_hash(code)}", pairing.model_dump_json().encode())
        return code, pairing

    async def redeem_pairing(self, code: str) -> str | None:
        """The listener the code pairs with, once: the code is spent by an update conditional on
        the entry read, so of two devices trading the same code at once only one gets a listener."""
        key = f"pairing.{token_hash(code)}"
        try:
            entry = await self.kv.get(key)
        except KeyNotFoundError:
            return None
        if not entry.value or entry.revision is None:
            return None
        pairing = Pairing.model_validate_json(entry.value)
        try:
            await self.kv.update(key, b"", last=entry.revision)
        except KeyWrongLastSequenceError:
            return None
        await self.kv.delete(key)
        return await self._acts(pairing.listener) if pairing.usable(time.time()) else None


def _pairs_with(value: bytes, listener: str) -> bool:
    if not value:
        return False  # a code being spent
    return Pairing.model_validate_json(value).listener == listener


def page_url(base_url: str, listener: str, token: str) -> str:
    """The token rides in the fragment, which a browser never sends; the page trades it for a
    device credential and then drops it from the address bar."""
    return f"{base_url}#token={token}&listener={listener}"


def pairing_url(base_url: str, code: str) -> str:
    return f"{base_url}#pair={code}"
