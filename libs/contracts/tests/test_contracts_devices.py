"""A device as the page names it (its kind and four letters) and as a listener says it."""

import pytest
from bedside_contracts.player import device_meant, device_spoken


@pytest.mark.parametrize(
    ("said", "device", "meant"),
    [
        ("phone", "iphone-x7k2", True),  # a tester: "where was I on my phone?" found nothing
        ("phone", "android-ab12", True),
        ("iphone", "iphone-x7k2", True),
        ("tablet", "ipad-q1w2", True),
        ("computer", "browser-zz99", True),
        ("phone", "browser-zz99", False),
        ("speaker", "speaker", True),  # a name given in the address is said as it is
        ("speaker", "kitchen-speaker", False),
        ("phone", "phone", True),
        ("phone", "iphone", False),  # not a name the page made
    ],
)
def test_a_device_is_meant_by_its_name_or_by_the_word_for_its_kind(
    said: str, device: str, meant: bool
) -> None:
    assert device_meant(said, device) is meant


def test_a_device_the_page_named_is_said_by_its_kind() -> None:
    """A tester: "why did it jump?" read out "by a seek on the iphone-x7k2"."""
    assert device_spoken("iphone-x7k2") == "iPhone"
    assert device_spoken("android-ab12") == "Android device"
    assert device_spoken("browser-zz99") == "browser"
    assert device_spoken("speaker") == "speaker"
