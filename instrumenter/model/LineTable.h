//===--- LineTable.h - offsets to lines and columns ------------*- C++ -*-===//
//
// Maps byte offsets of the original main file to 1-based lines and 0-based
// columns; the plan uses it for CTC line ranges and the emitter for the
// `#line` directives that keep diagnostics on the original lines.
//
//===----------------------------------------------------------------------===//
#ifndef OMPP_INSTRUMENTER_MODEL_LINETABLE_H
#define OMPP_INSTRUMENTER_MODEL_LINETABLE_H

#include "llvm/ADT/StringRef.h"
#include <vector>

namespace ompp::instrument::model {

class LineTable {
public:
  explicit LineTable(llvm::StringRef Text);
  unsigned line(unsigned Offset) const;   // 1-based
  unsigned column(unsigned Offset) const; // 0-based
  unsigned lineStart(unsigned Offset) const;
  unsigned lineCount() const { return Starts.size(); }
  unsigned offsetOfLine(unsigned Line) const { return Starts[Line - 1]; } // 1-based

private:
  std::vector<unsigned> Starts;
};

} // namespace ompp::instrument::model

#endif
