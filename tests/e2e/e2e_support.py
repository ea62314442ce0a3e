"""What the end-to-end scripts share: where the models are, which engines a
Hearth build has, running the desktop app under Xvfb when there is no
display, reading its --events lines, and hashing a file."""
import hashlib
import json
import os
import shutil
import subprocess

SKIP = 77  # ctest's SKIP_RETURN_CODE for these tests
XVFB = ['xvfb-run', '-a', '-s', '-screen 0 1280x800x24']


def models_dir():
    """The models folder as scripts/setup fills it."""
    if os.environ.get('HEARTH_MODELS_DIR'):
        return os.environ['HEARTH_MODELS_DIR']
    base = os.environ.get('XDG_DATA_HOME') or os.path.expanduser('~/.local/share')
    return os.path.join(base, 'hearth', 'models')


def engines(hearth):
    """The engines this Hearth build has (hearth --engines)."""
    return subprocess.run([hearth, '--engines'], capture_output=True, text=True,
                          env=dict(os.environ, QT_QPA_PLATFORM='offscreen')).stdout.split()


def has_display(env=None):
    env = os.environ if env is None else env
    return bool(env.get('DISPLAY') or env.get('WAYLAND_DISPLAY'))


def gui_command(cmd, env):
    """`cmd` and a copy of `env` that show the window somewhere: the display
    there is, else a private Xvfb (xvfb-run), else the offscreen platform."""
    env = dict(env)
    if not has_display(env):
        if shutil.which('xvfb-run'):
            cmd = XVFB + list(cmd)
            env['QT_QPA_PLATFORM'] = 'xcb'
        else:
            env['QT_QPA_PLATFORM'] = 'offscreen'
    env.setdefault('QT_LOGGING_RULES', 'qt.qml.compiler.warning=false')
    return cmd, env


def events_of(stdout):
    """The JSON objects Hearth --events printed, one a line."""
    return [json.loads(line) for line in stdout.splitlines() if line.startswith('{')]


def first(events, name):
    """The first event called `name`; the test fails without one."""
    for e in events:
        if e.get('event') == name:
            return e
    raise SystemExit(f'no "{name}" event; got: {[e.get("event") for e in events]}')


def check_png(path):
    """Fails the test unless `path` is a PNG with real content (16 colours
    or more, where ImageMagick's identify is there to count them)."""
    if not os.path.exists(path) or not os.path.getsize(path):
        raise SystemExit(f'{path} is missing or empty')
    if shutil.which('identify'):
        colours = int(subprocess.run(['identify', '-format', '%k', path], capture_output=True, text=True).stdout)
        if colours < 16:
            raise SystemExit(f'{path} looks blank ({colours} colours)')


def sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


def gui_keyring_model():
    """The SmolLM2 model for a test of the app under Xvfb with a keyring, or
    None after printing why the test is skipped: no model, no xvfb-run or
    no secretstorage module (the test reads the keychain with it)."""
    model = os.path.join(models_dir(), 'SmolLM2-135M-Instruct.Q4_1.gguf')
    if not os.path.exists(model):
        print(f'SKIP: {model} not found (scripts/setup)')
        return None
    if not shutil.which('xvfb-run'):
        print('SKIP: no xvfb-run')
        return None
    try:
        import secretstorage  # noqa: F401
    except ImportError:
        print('SKIP: the secretstorage module is missing (scripts/requirements.txt)')
        return None
    return model
