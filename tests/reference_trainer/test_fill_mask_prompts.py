"""The fill-mask prompt check both trainers share (reference_trainer.fill_mask.check_prompt)."""

from __future__ import annotations

import pytest

from reference_trainer.config import TrainerConfig
from reference_trainer.fill_mask import check_prompt
from reference_trainer.manifest import StageError


def test_a_prompt_that_fits_is_used() -> None:
    assert check_prompt(TrainerConfig(), "The <mask> is red.", "<mask>", 7, 64)
    assert check_prompt(TrainerConfig(), "The <mask> is red.", "<mask>", 64, 64)


def test_a_default_prompt_that_is_too_long_is_skipped() -> None:
    assert not check_prompt(TrainerConfig(), "The <mask> is red.", "<mask>", 65, 64)


def test_a_given_prompt_that_is_too_long_names_the_fix() -> None:
    config = TrainerConfig(fill_mask_prompts=("The <mask> is red.",))
    with pytest.raises(StageError, match=r"is 65 tokens, more than the 64 positions .*; shorten it"):
        check_prompt(config, "The <mask> is red.", "<mask>", 65, 64)


def test_a_prompt_without_the_mask_token_names_the_fix() -> None:
    with pytest.raises(StageError, match=r"has no <mask>; add one"):
        check_prompt(TrainerConfig(), "The sky is red.", "<mask>", 5, 64)
