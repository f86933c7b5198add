"""Listing a bucket's keys: every key that holds a value, none that was deleted or purged,
and the same answer each time it is asked (nats-py's own listing sometimes says "no keys")."""

from bedside_runtime.streams import key_value_bucket, live_keys
from nats.aio.client import Client
from nats.js.api import KeyValueConfig, StorageType


async def test_live_keys_leave_out_deleted_and_purged_keys(nats_client: Client) -> None:
    js = nats_client.jetstream()
    kv = await key_value_bucket(js, KeyValueConfig(bucket="live-keys", history=1, storage=StorageType.MEMORY))
    for key in ("b", "a", "gone", "purged", "c.d"):
        await kv.put(key, b"1")
    await kv.put("a", b"2")
    await kv.delete("gone")
    await kv.purge("purged")
    assert await live_keys(js, "live-keys") == ["a", "b", "c.d"]
    assert await live_keys(js, "live-keys", under="c.") == ["c.d"]  # only those read, not every key


async def test_an_empty_bucket_has_no_keys(nats_client: Client) -> None:
    js = nats_client.jetstream()
    await key_value_bucket(js, KeyValueConfig(bucket="no-keys", history=1, storage=StorageType.MEMORY))
    assert await live_keys(js, "no-keys") == []


async def test_keys_written_just_before_are_always_listed(nats_client: Client) -> None:
    js = nats_client.jetstream()
    config = KeyValueConfig(bucket="fresh-keys", history=1, storage=StorageType.MEMORY)
    kv = await key_value_bucket(js, config)
    for round_ in range(50):
        await kv.put(f"job-{round_}", b"queued")
        assert len(await live_keys(js, "fresh-keys")) == round_ + 1
