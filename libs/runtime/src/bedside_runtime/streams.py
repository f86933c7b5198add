"""Declaring JetStream streams and buckets: what an owner does at start.

A stream is declared only by its owner; a bucket is opened by whoever uses it and created
with its configuration by the first to find it missing.
"""

from nats.js.api import KeyValueConfig, ObjectStoreConfig, StorageType, StreamConfig
from nats.js.client import JetStreamContext
from nats.js.errors import BadRequestError, BucketNotFoundError
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


async def object_bucket(js: JetStreamContext, bucket: str, description: str, replicas: int) -> ObjectStore:
    """The file-backed object store ``bucket``, created if it does not exist yet."""
    try:
        return await js.object_store(bucket)
    except BucketNotFoundError:
        config = ObjectStoreConfig(description=description, storage=StorageType.FILE, replicas=replicas)
        return await js.create_object_store(bucket=bucket, config=config)
