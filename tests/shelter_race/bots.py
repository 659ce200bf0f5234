"""Two ways to play: run at once, or pack until the storm is close."""


def runner(state, seat):
    return {"type": "run"}


def packer(state, seat):
    left = state["options"]["storm_rounds"] - state["round"]
    return {"type": "pack"} if left >= 3 else {"type": "run"}


BOTS = {"runner": runner, "packer": packer}
POLICY_BOT = "runner"
