"""A user's server in tests/test_hub.py: the settings the image built from binder/ carries
(binder/jupyter_server_config.json, and voila.json's page settings)."""

import json
import os

REPO = os.environ.get("HUB_REPO") or os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
c = get_config()  # noqa: F821

with open(os.path.join(REPO, "binder", "jupyter_server_config.json")) as f:
    for section, values in json.load(f).items():
        for key, value in values.items():
            setattr(c[section], key, value)
with open(os.path.join(REPO, "voila.json")) as f:
    for key, value in json.load(f)["VoilaConfiguration"].items():
        if key != "multi_kernel_manager_class":  # the standalone server's own
            setattr(c.VoilaConfiguration, key, value)
