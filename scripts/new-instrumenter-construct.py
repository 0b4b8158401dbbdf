#!/usr/bin/python3
"""Scaffold instrumentation for a new OpenMP construct family, in the style of
clang-tidy's add_new_check.py: handler + table entry, test case, doc stub.

    scripts/new-instrumenter-construct.py <family> <Construct enumerator> <regionType>
    e.g. scripts/new-instrumenter-construct.py scope Scope scope

Creates
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


def main():
    if len(sys.argv) != 4 or not re.fullmatch(r"[a-z]+", sys.argv[1]):
        sys.exit(__doc__)
    family, construct, region_type = sys.argv[1:]
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
    print(f"created plan{construct} + table row, {case.relative_to(ROOT)}, doc section.\n"
          f"Now: add Construct::{construct} to model/Directive.h, map its OMPD_ kind in classify(), "
          f"declare POMP2_{calls}_* in include/pomp2/pomp2_ompp.h (a contract: additive only) and "
          f"in test/support/pomp2_recorder.c, and fill in the expectations.")


if __name__ == "__main__":
    main()
