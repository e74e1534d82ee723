"""JupyterHub for tests/test_hub.py: a class on one machine, as Zero to JupyterHub runs it.

The hub, its proxy (configurable-http-proxy from npm, tests/hub/node_modules) and one
single-user server per user, all on 127.0.0.1. Users log in on the hub's own form (the
dummy authenticator: any name, the password below). Each user's server is the image's
jupyterhub-singleuser with Voilà, in an empty home folder, its tables in the PostgreSQL the
test started. The teachers group holds "tess"; the teacher's page opens in her own server.
Ports, folders and the tables' URL come from the test, through the environment. What this
file sets matches the Zero to JupyterHub values in docs/deployment/jupyterhub.md.
"""

import os
import sys

RUN = os.environ["HUB_RUN_DIR"]  # the hub's database, cookie secret and the users' homes
REPO = os.environ["HUB_REPO"]
BIN = os.path.dirname(sys.executable)
PORT = int(os.environ["HUB_PORT"])

c = get_config()  # noqa: F821 - JupyterHub's config loader provides it

c.JupyterHub.bind_url = f"http://127.0.0.1:{PORT}"  # the proxy: every page goes through it
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = PORT + 1
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{PORT + 2}"
c.ConfigurableHTTPProxy.command = [os.environ["HUB_PROXY"]]
c.JupyterHub.db_url = f"sqlite:///{RUN}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = f"{RUN}/jupyterhub_cookie_secret"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = os.environ["HUB_PASSWORD"]
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"  # local processes, each user in a home folder of their own
c.SimpleLocalProcessSpawner.home_dir_template = RUN + "/home/{username}"
# The users' servers run in the image's environment (built from binder/ as repo2docker does,
# tests/binder_image.py), started through the image's binder/start, in an empty home folder,
# as a Zero to JupyterHub volume leaves it.
IMAGE_BIN = os.environ["HUB_IMAGE_BIN"]
c.Spawner.cmd = [REPO + "/binder/start", IMAGE_BIN + "/jupyterhub-singleuser"]
c.Spawner.args = ["--allow-root"]
c.Spawner.default_url = "/voila/render/ttr-nb/app.ipynb"
c.Spawner.environment = {
    "TTR_TABLES_URL": os.environ["TTR_TABLES_URL"],
    "PATH": IMAGE_BIN + os.pathsep + os.environ["PATH"],
    "VIRTUAL_ENV": os.path.dirname(IMAGE_BIN),
}
c.Spawner.start_timeout = 90
c.Spawner.http_timeout = 90
c.JupyterHub.load_groups = {"teachers": {"users": ["tess"]}}
c.JupyterHub.services = [{"name": "tester", "api_token": os.environ["HUB_TEST_TOKEN"]}]
c.JupyterHub.load_roles = [
    {
        "name": "tester",
        "services": ["tester"],
        "scopes": ["admin:users", "admin:servers", "admin:groups"],
    }
]
