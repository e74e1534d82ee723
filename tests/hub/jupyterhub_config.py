"""JupyterHub for tests/test_hub.py: a class on one machine, as Zero to JupyterHub runs it.

The hub, its proxy (configurable-http-proxy from npm, tests/hub/node_modules) and one
single-user server per user, all on 127.0.0.1. Users log in on the hub's own form (the
dummy authenticator: any name, the password below). Each user's server is the image's
jupyterhub-singleuser with Voilà, run as an unprivileged system user of its own
(``ttrhub-<name>``, made by the test), in a home folder only that user can read, as each
user of a Zero to JupyterHub runs in a container of their own.

The shared tables live behind the **table service**, a hub-managed service
(``ttr-tables``): it alone gets the tables' database URL (a PostgreSQL server the test
started, whose socket only root reaches), and it takes each request's identity from the hub
(the user's own server token, which the hub lets reach this service and nothing more) and
the teachers group from the hub's API. The users' servers get only the service's address.
The teachers group holds "tess"; the teacher's page opens in her own server. Ports, folders
and the tables' URL come from the test, through the environment. What this file sets
matches the Zero to JupyterHub values in docs/deployment/jupyterhub.md.
"""

import os
import pwd
import sys

from jupyterhub.spawner import LocalProcessSpawner, set_user_setuid

RUN = os.environ["HUB_RUN_DIR"]  # the hub's own files (readable by root only)
HOMES = os.environ["HUB_HOMES"]  # the users' home folders, one per system user
BIN = os.path.dirname(sys.executable)
PORT = int(os.environ["HUB_PORT"])
SERVICE_PORT = PORT + 3
SYSTEM_PREFIX = os.environ.get("HUB_SYSTEM_PREFIX", "ttrhub-")

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


class ClassSpawner(LocalProcessSpawner):
    """Each hub user's server as the system user ``ttrhub-<name>`` (made by the test)."""

    def system_name(self) -> str:
        return SYSTEM_PREFIX + self.user.name

    def make_preexec_fn(self, name: str):  # noqa: ANN201 - JupyterHub's signature
        return set_user_setuid(self.system_name())

    def user_env(self, env: dict) -> dict:
        entry = pwd.getpwnam(self.system_name())
        env["USER"] = self.user.name
        env["HOME"] = entry.pw_dir
        env["SHELL"] = entry.pw_shell
        return env


c.JupyterHub.spawner_class = ClassSpawner
# The users' servers run in the image's environment (built from binder/ as repo2docker does,
# tests/binder_image.py), started through the image's binder/start, in an empty home folder,
# as a Zero to JupyterHub volume leaves it.
IMAGE_BIN = os.environ["HUB_IMAGE_BIN"]
c.Spawner.cmd = [os.environ["HUB_START"], IMAGE_BIN + "/jupyterhub-singleuser"]
c.Spawner.default_url = "/voila/render/ttr-nb/app.ipynb"
SERVICE_URL = f"http://127.0.0.1:{SERVICE_PORT}/services/ttr-tables/"
c.Spawner.environment = {
    "TTR_TABLE_SERVICE_URL": SERVICE_URL,  # the users' servers: the service, not the database
    "PATH": IMAGE_BIN + os.pathsep + "/usr/bin:/bin",
    "VIRTUAL_ENV": os.path.dirname(IMAGE_BIN),
}
c.Spawner.start_timeout = 90
c.Spawner.http_timeout = 90
c.JupyterHub.load_groups = {"teachers": {"users": ["tess"]}}
c.JupyterHub.services = [
    {"name": "tester", "api_token": os.environ["HUB_TEST_TOKEN"]},
    {
        # The table service: the hub starts it (and starts it again if it stops), gives it
        # its address and its own API token; only it knows the database's URL.
        "name": "ttr-tables",
        "url": f"http://127.0.0.1:{SERVICE_PORT}",
        "command": [sys.executable, "-m", "ttr_nb.table_service", "--hub"],
        "environment": {
            "TTR_TABLES_URL": os.environ["TTR_TABLES_URL"],
            "TTR_TEACHER_GROUP": "teachers",
            "PYTHONUNBUFFERED": "1",
        },
        "display": False,
    },
]
c.JupyterHub.load_roles = [
    {
        "name": "tester",
        "services": ["tester"],
        "scopes": ["admin:users", "admin:servers", "admin:groups", "tokens"],
    },
    # A user's server may reach the table service with its own token (the service asks the
    # hub whose it is); the default scopes of a server's token stay as they were.
    {
        "name": "server",
        "scopes": [
            "users:activity!user",
            "access:servers!server",
            "access:services!service=ttr-tables",
        ],
    },
    # JupyterHub gives a server's token only scopes its user holds: the default role of a
    # user ("self") lacks the table service, so a user is given it too.
    {"name": "user", "scopes": ["self", "access:services!service=ttr-tables"]},
    # The table service reads who is in which group (the teachers) and nothing more.
    {
        "name": "ttr-tables",
        "services": ["ttr-tables"],
        "scopes": ["read:users:groups", "read:users:name"],
    },
]

# ---- The grading section of tests/test_hub.py (issue 50): an nbgrader course on this hub.
# Its accounts are system users named as the hub users (the test creates them, as a school's
# accounts would be), with homes in COURSE: their servers run as themselves, from the
# environment the test installed in COURSE/venv (ttr-nb with nbgrader), in JupyterLab, with
# nbgrader's shared settings (the exchange) from COURSE/etc. The account "grader-ttr" holds
# the course in ~/course; the hub group teachers may open its server.
COURSE = f"/tmp/ttr-hub-course-{PORT}"


def _course_home(name: str) -> str | None:
    """The home of a course account of this hub, or None (the table test's users)."""
    try:
        home = pwd.getpwnam(name).pw_dir
    except KeyError:
        return None
    return home if home.startswith(COURSE + "/home/") else None


class CourseSpawner(ClassSpawner):
    """The table test's users as ClassSpawner runs them; the course's accounts as themselves."""

    def system_name(self) -> str:
        return self.user.name if _course_home(self.user.name) else super().system_name()

    async def start(self):  # noqa: ANN201 - JupyterHub's signature
        home = _course_home(self.user.name)
        if home:
            course = os.path.join(home, "course")
            self.cmd = [COURSE + "/venv/bin/jupyterhub-singleuser"]
            self.default_url = "/lab"
            self.notebook_dir = course if os.path.isdir(course) else home
            self.environment = {
                "PATH": COURSE + "/venv/bin" + os.pathsep + "/usr/bin:/bin",
                "JUPYTER_CONFIG_PATH": COURSE + "/etc",
            }
        return await super().start()


c.JupyterHub.spawner_class = CourseSpawner
c.JupyterHub.load_roles.append(
    {"name": "course-graders", "groups": ["teachers"], "scopes": ["access:servers!user=grader-ttr"]}
)
