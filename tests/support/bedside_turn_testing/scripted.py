"""A scripted stand-in for AsyncAnthropic: answers from a script, keeps every request."""

import copy
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anthropic
import httpx2
from anthropic.types import Message, TextBlock, ToolUseBlock, Usage


@dataclass(frozen=True)
class Use:
    """The model calls a tool."""

    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Say:
    text: str


Reply = list[Use | Say] | Exception | Callable[[dict[str, Any]], list[Use | Say]]

_ids = itertools.count(1)


def message(blocks: list[Use | Say], model: str) -> Message:
    content: list[TextBlock | ToolUseBlock] = []
    for block in blocks:
        if isinstance(block, Say):
            content.append(TextBlock(type="text", text=block.text))
        else:
            content.append(
                ToolUseBlock(
                    type="tool_use", id=f"toolu_{next(_ids):06d}", name=block.name, input=block.input
                )
            )
    uses = any(isinstance(b, Use) for b in blocks)
    return Message(
        id=f"msg_{next(_ids):06d}",
        type="message",
        role="assistant",
        model=model,
        content=content,
        stop_reason="tool_use" if uses else "end_turn",
        stop_sequence=None,
        usage=Usage(input_tokens=1, output_tokens=1),
    )


def overloaded() -> anthropic.APIStatusError:
    request = httpx2.Request("POST", "https://api.anthropic.invalid/v1/messages")
    response = httpx2.Response(529, request=request)
    return anthropic.InternalServerError("Overloaded", response=response, body=None)


def rate_limited() -> anthropic.APIStatusError:
    request = httpx2.Request("POST", "https://api.anthropic.invalid/v1/messages")
    response = httpx2.Response(429, request=request)
    return anthropic.RateLimitError("Rate limited", response=response, body=None)


@dataclass
class ScriptedMessages:
    script: list[Reply]
    requests: list[dict[str, Any]] = field(default_factory=list)

    async def create(self, **request: Any) -> Message:
        self.requests.append(copy.deepcopy(request))
        if not self.script:
            return message([Say("I'm not sure what to say.")], request["model"])
        reply = self.script.pop(0)
        if isinstance(reply, Exception):
            raise reply
        if callable(reply):
            reply = reply(request)
        return message(reply, request["model"])


@dataclass
class ScriptedModel:
    """Pass as the turn service's model client; ``requests`` holds every request sent."""

    script: list[Reply]
    messages: ScriptedMessages = field(init=False)

    def __post_init__(self) -> None:
        self.messages = ScriptedMessages(self.script)

    @property
    def requests(self) -> list[dict[str, Any]]:
        return self.messages.requests

    def sent_text(self) -> str:
        """Everything sent to the model, as one string to search for leaks."""
        return json.dumps(self.requests, ensure_ascii=False)

    def last_tool_results(self) -> list[str]:
        """The tool results the model read in its latest request."""
        return self.tool_results(-1)

    def tool_results(self, request: int) -> list[str]:
        """The tool results the model read in one of its requests (0 is the first)."""
        sent = self.requests[request]["messages"][-1]["content"]
        return [
            block["content"]
            for block in sent
            if isinstance(block, dict) and block.get("type") == "tool_result"
        ]
