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

# ---- The grading section of tests/test_hub.py (issue 50): an nbgrader course on this hub.
# Its users have system accounts (the test creates them, as a school's accounts would be)
# whose homes lie in COURSE: their servers run as themselves (LocalProcessSpawner: a student
# cannot read another's files), from the environment the test installed in COURSE/venv
# (ttr-nb with nbgrader), in JupyterLab, with nbgrader's shared settings (the exchange) from
# COURSE/etc. The account "grader-ttr" holds the course in ~/course; the hub group teachers
# may open its server.
import pwd  # noqa: E402

from jupyterhub.spawner import LocalProcessSpawner, SimpleLocalProcessSpawner  # noqa: E402

COURSE = f"/tmp/ttr-hub-course-{PORT}"


def _course_home(name: str) -> str | None:
    """The home of a course account of this hub, or None (the table test's users)."""
    try:
        home = pwd.getpwnam(name).pw_dir
    except KeyError:
        return None
    return home if home.startswith(COURSE + "/home/") else None


class ClassSpawner(SimpleLocalProcessSpawner):
    """The table test's users as before; the course's users as themselves."""

    def make_preexec_fn(self, name):
        if _course_home(name):
            return LocalProcessSpawner.make_preexec_fn(self, name)
        return super().make_preexec_fn(name)

    def user_env(self, env):
        if _course_home(self.user.name):
            return LocalProcessSpawner.user_env(self, env)
        return super().user_env(env)

    async def start(self):
        home = _course_home(self.user.name)
        if home:
            course = os.path.join(home, "course")
            self.cmd = [COURSE + "/venv/bin/jupyterhub-singleuser"]
            self.args = []
            self.default_url = "/lab"
            self.notebook_dir = course if os.path.isdir(course) else home
            self.environment = {
                "PATH": COURSE + "/venv/bin" + os.pathsep + "/usr/bin:/bin",
                "JUPYTER_CONFIG_PATH": COURSE + "/etc",
            }
        return await super().start()


c.JupyterHub.spawner_class = ClassSpawner
c.JupyterHub.load_roles.append(
    {"name": "course-graders", "groups": ["teachers"], "scopes": ["access:servers!user=grader-ttr"]}
)
