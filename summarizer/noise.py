"""Telling chit-chat, acknowledgements and instructions aimed at the bot from content."""

from __future__ import annotations

import re

from summarizer.figures import FIGURE_RE
from summarizer.types import SourceMessage

_ACK_WORDS = (
    r"thanks?|thank you|thx|ty|tysm|lol|lmao|haha+|hah|nice|cool|great|awesome|amazing|wow|"
    r"ok(?:ay)?|kk?|yes|yep|yeah|yup|no|nope|sure|agreed|same|same here|\+1|\+100|lgtm|"
    r"congrats|congratulations|welcome|welcome aboard|good morning|gm|gn|good night|"
    r"sounds good|makes sense|got it|will do|on it|done|noted|np|no worries|this|so true|"
    r"exactly|indeed|love it|love this|huge|let'?s go|ship it|woo+|yay|oh no|ouch|oof"
)
# A message made only of acknowledgements, names and punctuation ("thanks @Ana!", "lol +1").
_EMOJI = r":[\w+-]+:|[\u2190-\u2bff\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]"
# A mention such as "@ana" or "@Ana Ruiz" (a second word only when capitalised, like a name).
_MENTION = r"@[\w'.-]+(?:\s[A-Z][\w'.-]*)?"
_ACK_RE = re.compile(
    rf"^(?:(?:{_ACK_WORDS})(?:\s+(?:so much|a lot|all|everyone|folks|team|guys|y'all))?"
    rf"(?:[\s!.,:;)(~-]|{_MENTION}|{_EMOJI})*)+$",
    re.IGNORECASE,
)
_EMOJI_ONLY_RE = re.compile(rf"^(?:\s|{_EMOJI}|[!?.])+$")
# Chat that addresses the summarizer with instructions: data, never orders, never facts.
_INSTRUCTION_RE = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(?:previous|prior|above|earlier|"
    r"your|all|the)\b[^.!?\n]{0,20}\b(?:instructions?|prompts?|rules?|guidelines)\b"
    r"|\b(?:summary ?bot|summari[sz]er|the bot|you are an? (?:ai|assistant|language model))\b"
    r"[^.!?\n]{0,80}\b(?:report|say|write|state|claim|announce|include|mention|add)\b"
    r"|\bsystem prompt\b|\bin (?:the|this week'?s|your) summary,? (?:say|write|report|state)\b",
    re.IGNORECASE,
)


def is_acknowledgement(text: str) -> bool:
    """Thanks, +1, lol, emoji and other replies that carry no content of their own."""
    stripped = text.strip()
    return not stripped or bool(_ACK_RE.match(stripped) or _EMOJI_ONLY_RE.match(stripped))


def is_instruction_to_bot(text: str) -> bool:
    """Whether the text tries to instruct the summarizer (prompt injection)."""
    return bool(_INSTRUCTION_RE.search(text))


def is_noise(message: SourceMessage) -> bool:
    """Messages a weekly summary never draws on."""
    if is_acknowledgement(message.text) or is_instruction_to_bot(message.text):
        return True
    if message.is_bot:
        # Bot chatter counts only when it carries a PR or a figure (CI and deploy pings do not).
        return not (message.prs or FIGURE_RE.search(message.text))
    return False
