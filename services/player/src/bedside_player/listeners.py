"""Listeners and their tokens, in the LISTENERS KV bucket. The one place for that rule.

``listener.<name>`` holds the listener's record; ``token.<sha256>`` maps a token's hash to
its listener, so a bearer token finds its listener without a scan. The CLI and the
service both use this module.
"""

import hashlib
import secrets

from bedside_contracts import subjects
from bedside_contracts.common import Contract, Name
from nats.js import JetStreamContext
from nats.js.api import KeyValueConfig, StorageType
from nats.js.errors import BucketNotFoundError, KeyNotFoundError, NoKeysError
from nats.js.kv import KeyValue

DEFAULT_LISTENER = "me"


class ListenerRecord(Contract):
    listener: Name
    token: str
    """Kept so that ``bedside up`` can print the page URL again; the bus is the trust boundary."""


class ListenerExists(Exception):
    pass


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Listeners:
    def __init__(self, kv: KeyValue) -> None:
        self.kv = kv
        self.known: dict[str, str] = {}

    @classmethod
    async def open(cls, js: JetStreamContext, replicas: int = 1) -> "Listeners":
        try:
            kv = await js.key_value(subjects.LISTENERS_BUCKET)
        except BucketNotFoundError:
            kv = await js.create_key_value(
                KeyValueConfig(
                    bucket=subjects.LISTENERS_BUCKET, history=1, storage=StorageType.FILE, replicas=replicas
                )
            )
        return cls(kv)

    async def create(self, listener: str) -> str:
        """Make ``listener`` with a fresh token and return the token."""
        token = secrets.token_urlsafe(24)
        record = ListenerRecord(listener=listener, token=token)
        try:
            await self.kv.create(f"listener.{listener}", record.model_dump_json().encode())
        except Exception as error:  # the key exists (KeyWrongLastSequenceError) or the bus failed
            if await self.record(listener) is not None:
                raise ListenerExists(f"a listener named {listener!r} exists already") from error
            raise
        await self.kv.put(f"token.{token_hash(token)}", listener.encode())
        return token

    async def record(self, listener: str) -> ListenerRecord | None:
        try:
            entry = await self.kv.get(f"listener.{listener}")
        except KeyNotFoundError:
            return None
        return ListenerRecord.model_validate_json(entry.value or b"{}")

    async def names(self) -> list[str]:
        try:
            keys = await self.kv.keys()
        except NoKeysError:
            return []
        return sorted(k.removeprefix("listener.") for k in keys if k.startswith("listener."))

    async def listener_for(self, token: str) -> str | None:
        """The listener a token belongs to, or None. Found tokens are remembered (tokens are never reused)."""
        hashed = token_hash(token)
        if hashed in self.known:
            return self.known[hashed]
        try:
            entry = await self.kv.get(f"token.{hashed}")
        except KeyNotFoundError:
            return None
        listener = (entry.value or b"").decode()
        self.known[hashed] = listener
        return listener


def page_url(host: str, port: int, listener: str, token: str) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    return f"http://{shown}:{port}/?token={token}&listener={listener}"
