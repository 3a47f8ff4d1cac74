"""The profile-guided model (docs/ARCHITECTURE.md, "Profile-guided models") changes simulation speed,
never behaviour: programs end with the same status, console output and cycles as on the plain
model, and the model was compiled from a profile its training runs left."""

from __future__ import annotations

import pytest

from aesoc.common.toolchain import BUILD, REPO, ToolError
from aesoc.sim import model
from aesoc.sim.run import build_and_run
from aesoc.soc import description

# The smallest configuration: the build and training path is the same for every one.
CONFIG = "base"


@pytest.mark.parametrize("program", ["tests/timer_irq", "tests/cache", "bench/platform"])
def test_program_runs_the_same_on_the_profile_guided_model(program: str) -> None:
    guided, guided_line = build_and_run(REPO / "fw" / program, CONFIG, pgo=True, reuse=False)
    plain, plain_line = build_and_run(REPO / "fw" / program, CONFIG, pgo=False, reuse=False)
    assert guided.status == "exit" and guided.code == 0, f"{guided_line}\n{guided.console[-2000:]}"
    assert (guided.status, guided.code, guided.cycles) == (plain.status, plain.code, plain.cycles)
    assert guided.console == plain.console
    assert "(profile-guided model)" in guided_line and "profile-guided" not in plain_line


def test_model_compiled_from_its_training_profile() -> None:
    """Every program the configuration trains on left counts, and the second compile used them."""
    config = description.load_config(CONFIG)
    exe = model.build_model(config, pgo=True)
    obj = exe.parent / "obj"
    assert exe.parent == BUILD / "sim" / f"{CONFIG}-pgo"
    assert [folder.name for folder in model._pgo_programs(config)] == ["platform", "timer_irq"]
    assert list(obj.glob("*.gcda")), "no profile left by the training runs"
    log = (BUILD / "logs" / f"pgo-{CONFIG}-pgo.log").read_text()
    assert "-fprofile-use" in log and "-fprofile-generate" not in log


def test_not_with_tracing_or_activity() -> None:
    config = description.load_config(CONFIG)
    for kwargs in ({"trace": True}, {"activity": True}):
        with pytest.raises(ToolError, match="profile-guided model is built without tracing"):
            model.build_model(config, pgo=True, **kwargs)
