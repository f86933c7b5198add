"""One turn with Claude: bounded tool rounds, retries on overload, and a spoken fallback."""

import asyncio
import random
from dataclasses import dataclass
from typing import Any, Protocol

import structlog

from bedside_turn.prompt import system_blocks, tool_schemas
from bedside_turn.tools import ToolBox

log = structlog.get_logger("bedside.turn.claude")

MAX_ROUNDS = 4
"""Tool rounds per turn: search, offer, and room for one change of mind."""
MAX_TOKENS = 400
RETRYABLE = {429, 500, 502, 503, 504, 529}


class ModelClient(Protocol):
    """What a turn needs of ``anthropic.AsyncAnthropic`` (and what the scripted model fakes)."""

    @property
    def messages(self) -> Any: ...


class ModelUnreachable(Exception):
    """The model could not be reached after the retries; the turn answers without it."""


@dataclass(frozen=True)
class Retry:
    attempts: int = 3
    base_delay_s: float = 0.4
    max_delay_s: float = 2.0


DEFAULT_RETRY = Retry()


async def create_with_retry(client: ModelClient, retry: Retry, **request: Any) -> Any:
    """One Messages call, retried with jittered backoff on overload, rate limits and timeouts."""
    # Imported here, not at the top: only a turn with a model gets here (main.model_client), and
    # the SDK takes over two seconds of CPU to import, which a keyless household never needs.
    import anthropic  # noqa: PLC0415

    for attempt in range(retry.attempts):
        try:
            return await client.messages.create(**request)
        except Exception as error:
            overloaded = isinstance(error, anthropic.APIStatusError) and error.status_code in RETRYABLE
            if not (overloaded or isinstance(error, anthropic.APIConnectionError | TimeoutError)):
                if isinstance(error, anthropic.APIError):
                    raise ModelUnreachable(type(error).__name__) from error
                raise
            log.warning("model call failed; retrying", attempt=attempt + 1, error=type(error).__name__)
            if attempt + 1 == retry.attempts:
                raise ModelUnreachable(type(error).__name__) from error
            delay = min(retry.max_delay_s, retry.base_delay_s * 2**attempt)
            await asyncio.sleep(delay * (0.5 + random.random() / 2))
    raise ModelUnreachable("no attempts")


def block_dict(block: Any) -> dict[str, Any]:
    """A response content block as it is sent back in the next request."""
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    if block.type == "text":
        return {"type": "text", "text": block.text}
    dumped: dict[str, Any] = block.model_dump(exclude_none=True)
    return dumped


async def run_with_model(
    *,
    client: ModelClient,
    model: str,
    tools: ToolBox,
    history: list[dict[str, Any]],
    utterance: str,
    retry: Retry,
) -> str:
    """Run the tool loop; return what the model says last (empty when it said nothing)."""
    messages: list[dict[str, Any]] = [*history, {"role": "user", "content": utterance}]
    schemas = tool_schemas()
    for round_no in range(MAX_ROUNDS):
        last_round = round_no == MAX_ROUNDS - 1
        request: dict[str, Any] = {
            "model": model,
            "max_tokens": MAX_TOKENS,
            "system": system_blocks(),
            "tools": schemas,
            "messages": messages,
        }
        if last_round:
            request["tool_choice"] = {"type": "none"}
        with tools.turn.step(f"model round {round_no + 1}"):
            response = await create_with_retry(client, retry, **request)
        content = list(response.content)
        uses = [b for b in content if b.type == "tool_use"]
        if not uses:
            return " ".join(b.text.strip() for b in content if b.type == "text").strip()
        messages.append({"role": "assistant", "content": [block_dict(b) for b in content]})
        results = []
        for use in uses:
            record = await tools.run(use.name, use.input)
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": use.id,
                    "content": record.result,
                    "is_error": record.refused,
                }
            )
        messages.append({"role": "user", "content": results})
    return ""
