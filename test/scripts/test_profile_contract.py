#!/usr/bin/env python3
"""The JSON profile contract (docs/profile-json.md, docs/profile.schema.json):
profiles of real libompp runs validate against the schema, and read back
through the one reader (scripts/ompp_profile) with every figure intact.

The programs are the hand-instrumented ones of test/analyses (built with the
runtime); their directory is OMPP_TEST_PROGRAMS.  The schema is checked with
a validator of the JSON Schema subset it uses, written here (jsonschema is
not a dependency of ompp).
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from ompp_profile import SUPPORTED_VERSION, ProfileFormatError, read_json, read_profile  # noqa: E402

SCHEMA = json.loads((ROOT / "docs" / "profile.schema.json").read_text())
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def violations(value, schema, where="$"):
    """Every place `value` breaks `schema` (type, enum, minimum, required, properties, items),
    and every key of an object the schema does not list (a key the writer added without the contract)."""
    found = []
    allowed = schema.get("type")
    if allowed is not None:
        names = allowed if isinstance(allowed, list) else [allowed]

        def is_a(name):
            if name == "integer":
                return isinstance(value, int) and not isinstance(value, bool)
            if name == "number":
                return isinstance(value, (int, float)) and not isinstance(value, bool)
            return isinstance(value, TYPES[name])

        if not any(is_a(name) for name in names):
            return [f"{where}: {type(value).__name__} {value!r:.40}, not {'/'.join(names)}"]
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} not one of {schema['enum']}")
    if "minimum" in schema and isinstance(value, (int, float)) and value < schema["minimum"]:
        found.append(f"{where}: {value} < {schema['minimum']}")
    if isinstance(value, dict):
        found += [f"{where}: missing '{key}'" for key in schema.get("required", []) if key not in value]
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                found += violations(value[key], sub, f"{where}.{key}")
        if "properties" in schema:
            found += [f"{where}: '{key}' is not in the contract" for key in value if key not in schema["properties"]]
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found += violations(item, schema["items"], f"{where}[{i}]")
    return found


def run_program(name, args=(), threads=2):
    programs = os.environ.get("OMPP_TEST_PROGRAMS")
    if not programs:
        raise unittest.SkipTest("OMPP_TEST_PROGRAMS is not set (ctest sets it)")
    outdir = tempfile.mkdtemp(prefix="ompp-contract-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OMPP_")}
    env.update(OMPP_OUTDIR=outdir, OMPP_QUIET="1", OMP_NUM_THREADS=str(threads))
    subprocess.run([os.path.join(programs, name), *args], env=env, check=True, timeout=120)
    (path,) = glob.glob(os.path.join(outdir, "*.ompp.json"))
    return path


class Schema(unittest.TestCase):
    def test_region_kinds_are_those_of_the_one_table(self):
        table = (ROOT / "include" / "pomp2" / "ompp_regions.def").read_text()
        kinds = re.findall(r"^\s*OMPP_REGION_KIND\(\s*\w+\s*,\s*\"?([A-Z_]+)", table, re.MULTILINE)
        schema_kinds = SCHEMA["properties"]["regions"]["items"]["properties"]["kind"]["enum"]
        self.assertEqual(schema_kinds, kinds)

    def test_the_schema_version_is_the_readers(self):
        self.assertEqual(SCHEMA["properties"]["version"]["enum"], [SUPPORTED_VERSION])

    def test_the_validator_finds_what_breaks_the_schema(self):
        broken = {"format": "ompp-profile", "version": 1, "application": 7, "nodes": [{"id": -1}]}
        found = "\n".join(violations(broken, SCHEMA))
        self.assertIn("$.application: int", found)
        self.assertIn("$: missing 'regions'", found)
        self.assertIn("$.nodes[0].id: -1 < 0", found)
        self.assertIn("$.nodes[0]: missing 'threads'", found)
        undocumented = {**broken, "new_key": 1}
        self.assertIn("$: 'new_key' is not in the contract", "\n".join(violations(undocumented, SCHEMA)))

    def test_the_reader_refuses_a_newer_version(self):
        with self.assertRaisesRegex(ProfileFormatError, "version 2"):
            read_json({"format": "ompp-profile", "version": SUPPORTED_VERSION + 1})


class RoundTrip(unittest.TestCase):
    """From a real libompp run through the schema and the reader."""

    @classmethod
    def setUpClass(cls):
        cls.path = run_program("imbalance_critical")
        cls.raw = json.loads(Path(cls.path).read_text())

    def test_the_profile_keeps_the_contract(self):
        self.assertEqual(violations(self.raw, SCHEMA), [])

    def test_the_reader_keeps_every_figure(self):
        profile = read_profile(self.path)
        self.assertEqual(read_json(self.path), self.raw)
        self.assertEqual((profile.version, profile.application, profile.threads, profile.wall_time_s),
                         (self.raw["version"], self.raw["application"], self.raw["threads"], self.raw["wall_time_s"]))
        self.assertEqual(sorted(profile.regions), sorted(r["id"] for r in self.raw["regions"]))
        self.assertEqual(len(profile.nodes), len(self.raw["nodes"]))
        for raw_node in self.raw["nodes"]:
            node = profile.nodes[raw_node["id"]]
            self.assertEqual((node.parent, node.kind, node.region),
                             (raw_node["parent"], raw_node["kind"], raw_node["region"]))
            for metrics, raw_metrics in zip(node.threads, raw_node["threads"]):
                for key, value in raw_metrics.items():
                    read = getattr(metrics, key)
                    self.assertEqual(list(read) if isinstance(read, tuple) else read, value, (raw_node["id"], key))
            self.assertEqual([(p.node, p.thread, p.count) for p in node.predecessors],
                             [(p["node"], p["thread"], p["count"]) for p in raw_node["predecessors"]])
        sampled = [t for n in profile.nodes.values() for t in n.threads if t.cpu_samples > 0]
        self.assertTrue(sampled, "no parallel body was sampled")
        self.assertEqual(profile.properties, self.raw["properties"])
        self.assertEqual(profile.overheads, self.raw["overheads"])


if __name__ == "__main__":
    unittest.main()
