"""Declaring JetStream streams and buckets: what an owner does at start.

A stream is declared only by its owner; a bucket is opened by whoever uses it and created
with its configuration by the first to find it missing.
"""

from nats.js.api import KeyValueConfig, ObjectStoreConfig, StorageType, StreamConfig
from nats.js.client import JetStreamContext
from nats.js.errors import BadRequestError, BucketNotFoundError, KeyNotFoundError
from nats.js.kv import KeyValue
from nats.js.object_store import ObjectStore


async def declare_stream(js: JetStreamContext, config: StreamConfig) -> None:
    """Create the stream, or bring an existing one's configuration up to ``config``."""
    try:
        await js.add_stream(config)
    except BadRequestError:
        await js.update_stream(config)


async def key_value_bucket(js: JetStreamContext, config: KeyValueConfig) -> KeyValue:
    """The bucket ``config`` names, created with ``config`` if it does not exist yet."""
    try:
        return await js.key_value(config.bucket)
    except BucketNotFoundError:
        return await js.create_key_value(config)


async def object_bucket(
    js: JetStreamContext, bucket: str, description: str, replicas: int, *, ttl_s: float | None = None
) -> ObjectStore:
    """The file-backed object store ``bucket``, created if it does not exist yet; with ``ttl_s``
    the server drops an object that old."""
    try:
        return await js.object_store(bucket)
    except BucketNotFoundError:
        config = ObjectStoreConfig(
            description=description, storage=StorageType.FILE, replicas=replicas, ttl=ttl_s
        )
        return await js.create_object_store(bucket=bucket, config=config)


async def live_keys(js: JetStreamContext, bucket: str, under: str = "") -> list[str]:
    """The keys of ``bucket`` that hold a value now, sorted; only those starting ``under`` (a prefix
    ending in a dot) are read, when it is given.

    Read from the stream's own subject list: nats-py's ``KeyValue.keys`` lists by a watcher
    that reports an empty bucket when the server has handed it the keys before it counted
    them (the watcher's consumer shows nothing pending and nothing delivered).
    """
    prefix = f"$KV.{bucket}."
    info = await js.stream_info(f"KV_{bucket}", subjects_filter=f"{prefix}{under}>")
    kv = await js.key_value(bucket)
    keys: list[str] = []
    for subject in sorted(info.state.subjects or {}):
        key = subject.removeprefix(prefix)
        try:
            await kv.get(key)
        except KeyNotFoundError:  # its last message deletes or purges it
            continue
        keys.append(key)
    return keys
