# SPDX-License-Identifier: BSD-3-Clause
"""The npm libraries the HTML report embeds: which files, where the build
puts them, and how ompp-view finds them.

The libraries are pinned in ``scripts/ompp-view-deps/package.json`` and
``package-lock.json``; the build runs ``npm ci`` there into the build tree
and then ``python3 -m ompp_profile.assets NODE_MODULES OUT_DIR``, which
copies the browser builds listed in LIBRARIES and every package's licence
into OUT_DIR (``<build>/share/ompp/view``, installed as
``<prefix>/share/ompp/view``).  The report reads the files from there, so
nothing is fetched when it is opened.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

# The environment variable that names the assets directory, before the
# places searched by find_assets_dir.
ENV_VAR = "OMPP_VIEW_ASSETS"
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Library:
    package: str   # npm package name
    file: str      # its browser build, relative to the package
    kind: str      # "js" or "css"
    # An ES module is turned into a classic script that sets this global.
    module_global: Optional[str] = None


# In load order: each d3 UMD build extends the global `d3` with its module,
# so a module's dependencies come before it.
LIBRARIES = (
    Library("d3-dispatch", "dist/d3-dispatch.min.js", "js"),
    Library("d3-selection", "dist/d3-selection.min.js", "js"),
    Library("d3-color", "dist/d3-color.min.js", "js"),
    Library("d3-interpolate", "dist/d3-interpolate.min.js", "js"),
    Library("d3-timer", "dist/d3-timer.min.js", "js"),
    Library("d3-ease", "dist/d3-ease.min.js", "js"),
    Library("d3-transition", "dist/d3-transition.min.js", "js"),
    Library("d3-drag", "dist/d3-drag.min.js", "js"),
    Library("d3-zoom", "dist/d3-zoom.min.js", "js"),
    Library("d3-hierarchy", "dist/d3-hierarchy.min.js", "js"),
    Library("d3-scale-chromatic", "dist/d3-scale-chromatic.min.js", "js"),
    Library("uplot", "dist/uPlot.iife.min.js", "js"),
    Library("uplot", "dist/uPlot.min.css", "css"),
    Library("@hpcc-js/wasm-graphviz", "dist/index.js", "js", module_global="OmppGraphviz"),
)

# Software compiled into a package's build whose licence the package does
# not ship; named here so that the licence notice is complete.
BUNDLED_WITHIN = {
    "@hpcc-js/wasm-graphviz": "contains Graphviz (Eclipse Public License 1.0, https://graphviz.org/license/) "
                              "and Expat (MIT licence, https://github.com/libexpat/libexpat/blob/master/COPYING) "
                              "compiled to WebAssembly",
}


class AssetsMissing(Exception):
    pass


def _asset_name(library: Library) -> str:
    return library.package.replace("@", "").replace("/", "-") + "-" + Path(library.file).name


def _as_classic_script(text: str, global_name: str) -> str:
    """An esbuild ES module ends in one `export{a as B,...}`; a classic
    script that assigns those names to one global object is the same code
    usable from an inline <script>."""
    match = re.search(r"export\s*\{([^}]*)\};?\s*(//# sourceMappingURL=\S*\s*)?$", text)
    if not match:
        raise AssetsMissing(f"no trailing export list to turn into the global {global_name}")
    entries = []
    for item in match.group(1).split(","):
        local, _, exported = item.strip().partition(" as ")
        entries.append(f"{json.dumps(exported or local)}:{local}")
    return "(function(){" + text[:match.start()] + f"globalThis.{global_name}={{{','.join(entries)}}};}})();\n"


def bundle(node_modules: Path, out_dir: Path) -> None:
    """Copies the LIBRARIES' browser builds and every package's licence
    (with the versions npm installed) from node_modules into out_dir."""
    out_dir.mkdir(parents=True, exist_ok=True)
    licences = out_dir / "licenses"
    licences.mkdir(exist_ok=True)
    files, packages = [], {}
    for library in LIBRARIES:
        package_dir = node_modules / library.package
        source = package_dir / library.file
        if not source.is_file():
            raise AssetsMissing(f"{source} not found: run `npm ci` in scripts/ompp-view-deps' copy first")
        text = source.read_text()
        if library.module_global:
            text = _as_classic_script(text, library.module_global)
        name = _asset_name(library)
        (out_dir / name).write_text(text)
        files.append({"file": name, "kind": library.kind, "package": library.package})
        if library.package not in packages:
            meta = json.loads((package_dir / "package.json").read_text())
            licence_files = sorted(p for p in package_dir.iterdir() if p.name.upper().startswith(("LICENSE", "LICENCE")))
            if not licence_files:
                raise AssetsMissing(f"{package_dir}: no licence file")
            licence_name = library.package.replace("@", "").replace("/", "-") + ".txt"
            shutil.copyfile(licence_files[0], licences / licence_name)
            packages[library.package] = {"version": meta["version"], "license": meta.get("license"),
                                         "license_file": f"licenses/{licence_name}",
                                         **({"bundles": BUNDLED_WITHIN[library.package]}
                                            if library.package in BUNDLED_WITHIN else {})}
    (out_dir / MANIFEST).write_text(json.dumps({"files": files, "packages": packages}, indent=1) + "\n")


def _candidates(script_dir: Path) -> list[Path]:
    """Where the assets are, for an ompp-view in script_dir: installed
    (bin/ompp-view, share/ompp/view) or run from the source tree with the
    default build directory (scripts/ompp-view, build/share/ompp/view)."""
    return [script_dir.parent / "share" / "ompp" / "view",
            script_dir.parent / "build" / "share" / "ompp" / "view"]


def find_assets_dir(script_dir: Path) -> Path:
    named = os.environ.get(ENV_VAR)
    candidates = [Path(named)] if named else _candidates(script_dir)
    for candidate in candidates:
        if (candidate / MANIFEST).is_file():
            return candidate
    looked = ", ".join(str(c) for c in candidates)
    raise AssetsMissing(
        f"the report's JavaScript libraries were not found (looked in {looked}); build them with "
        "`cmake --build build --target ompp_view_assets` (needs npm), or point "
        f"{ENV_VAR} at a directory built by it")


@dataclass(frozen=True)
class Assets:
    scripts: list[str]   # in load order
    styles: list[str]
    notice: str          # one comment naming each package, its version and licence


def load_assets(assets_dir: Path) -> Assets:
    manifest = json.loads((assets_dir / MANIFEST).read_text())
    scripts, styles = [], []
    for entry in manifest["files"]:
        (scripts if entry["kind"] == "js" else styles).append((assets_dir / entry["file"]).read_text())
    notice = "; ".join(
        f"{name} {meta['version']} ({meta['license']}{', ' + meta['bundles'] if 'bundles' in meta else ''})"
        for name, meta in manifest["packages"].items())
    return Assets(scripts, styles, f"Embedded libraries, licence texts in share/ompp/view/licenses: {notice}")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 -m ompp_profile.assets NODE_MODULES OUT_DIR", file=sys.stderr)
        return 2
    try:
        bundle(Path(argv[0]), Path(argv[1]))
    except (OSError, AssetsMissing) as err:
        print(f"ompp_profile.assets: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
