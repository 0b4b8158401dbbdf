#!/usr/bin/python3
"""Scaffold instrumentation for a new OpenMP construct family, in the style of
clang-tidy's add_new_check.py: handler + table entry, test case, doc stub.

    scripts/new-instrumenter-construct.py <family> <Construct enumerator> <regionType> [<RegionKind>]
    e.g. scripts/new-instrumenter-construct.py scope Scope scope

Creates
  * include/pomp2/ompp_regions.def: the regionType row (measured as
    RegionKind, default: the Construct enumerator) and, for a new kind, its
    row with JSON and report names; instrumenter, libompp and the test
    recorder all read the vocabulary from there;
  * plan/Handlers.cpp: a handler `plan<Construct>` (enter/exit around the
    construct) before the handler table, and its row at the end of the table;
  * test/instrumenter/cases/<family>.c: an input with expectations to fill in;
  * docs/instrumenter.md: a section under "## Constructs" to complete.
The model must still classify the directive kind as the new enumerator
(model/Directive.h, classify() in model/Directive.cpp); the script says so.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def add_table_rows(region_type, kind):
    table = ROOT / "include/pomp2/ompp_regions.def"
    text = table.read_text()
    accepted = re.search(rf'OMPP_REGION_TYPE\("{region_type}", (\w+), 0\)', text)
    if accepted:  # read from OPARI2 output so far: ompp-instrument now writes it
        text = text.replace(accepted.group(0), f'OMPP_REGION_TYPE("{region_type}", {accepted.group(1)}, 1)')
    else:
        if f"OMPP_REGION_KIND({kind}," not in text:
            words = re.findall(r"[A-Z][a-z]*", kind)
            row = (f'OMPP_REGION_KIND({kind}, "{"_".join(w.upper() for w in words)}", '
                   f'"{" ".join(w.upper() for w in words)}")')
            text = text.replace("\n\nOMPP_REGION_TYPE(", "\n" + row + "\n\nOMPP_REGION_TYPE(", 1)
        text = text.replace("\n\n#undef OMPP_REGION_KIND",
                            f'\nOMPP_REGION_TYPE("{region_type}", {kind}, 1)\n\n#undef OMPP_REGION_KIND', 1)
    table.write_text(text)


def main():
    if len(sys.argv) not in (4, 5) or not re.fullmatch(r"[a-z]+", sys.argv[1]):
        sys.exit(__doc__)
    family, construct, region_type = sys.argv[1:4]
    kind = sys.argv[4] if len(sys.argv) == 5 else construct
    handlers = ROOT / "instrumenter/plan/Handlers.cpp"
    text = handlers.read_text()
    if f"plan{construct}(" in text:
        sys.exit(f"plan{construct} exists already in {handlers}")
    calls = construct.capitalize()
    handler = f'''/// {family}: enter/exit around the construct (generated stub: adapt the calls).
void plan{construct}(size_t I, const Directive &D, Context &Ctx) {{
  unsigned N = Ctx.region(I, "{region_type}");
  Ctx.before(D, "{{ POMP2_{calls}_enter(" + H(N) + ", " + C(N) + ");");
  Ctx.after(D, "POMP2_{calls}_exit(" + H(N) + "); }}");
}}

'''
    text = text.replace("const HandlerEntry Table[] = {", handler + "const HandlerEntry Table[] = {", 1)
    row = f'    {{Construct::{construct}, "{family}", true, plan{construct}}},\n}};'
    text = re.sub(r"\n};\n\n} // namespace\n\nllvm::ArrayRef<HandlerEntry> handlerTable",
                  "\n" + row + "\n\n} // namespace\n\nllvm::ArrayRef<HandlerEntry> handlerTable", text, count=1)
    handlers.write_text(text)
    add_table_rows(region_type, kind)

    case = ROOT / f"test/instrumenter/cases/{family}.c"
    if not case.exists():
        case.write_text(f'''#include <stdio.h>
int main(void) {{
  #pragma omp parallel
  {{
    #pragma omp {family}
    {{ }}
  }}
  printf("done\\n");
  return 0;
}}
// STDOUT: done
// T1: Parallel_fork parallel@3; Parallel_begin parallel; POMP2_{calls}_enter {region_type}@5; FILL IN
''')
    doc = ROOT / "docs/instrumenter.md"
    doc_text = doc.read_text()
    stub = f"### {family}\n\n```c\n{{ POMP2_{calls}_enter(H, C);\n#pragma omp {family}\n  <block>\nPOMP2_{calls}_exit(H); }}\n```\nTODO: describe.\n\n"
    doc.write_text(doc_text.replace("### target, teams, distribute", stub + "### target, teams, distribute", 1))
    print(f"created the ompp_regions.def row(s), plan{construct} + handler table row, "
          f"{case.relative_to(ROOT)}, doc section.\n"
          f"Now: add Construct::{construct} to model/Directive.h, map its OMPD_ kind in classify(), "
          f"declare POMP2_{calls}_* in include/pomp2/pomp2_ompp.h (a contract: additive only) and "
          f"in test/support/pomp2_recorder.c, and fill in the expectations.")


if __name__ == "__main__":
    main()
