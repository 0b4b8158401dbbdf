"""The benchmark scripts (benchmarks/*.py, named with dashes) loaded as modules for their tests."""

import importlib.util
import os
import sys
from pathlib import Path


def load(file_name: str, environment_override: str, module_name: str):
    """benchmarks/<file_name>, or the file the environment variable names (the build's copy)."""
    path = Path(os.environ.get(environment_override,
                               Path(__file__).resolve().parents[2] / "benchmarks" / file_name))
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module
