#include "model/LineTable.h"

#include <algorithm>

namespace ompp::instrument::model {

LineTable::LineTable(llvm::StringRef Text) {
  Starts.push_back(0);
  for (unsigned I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
}

unsigned LineTable::line(unsigned Offset) const {
  return std::upper_bound(Starts.begin(), Starts.end(), Offset) - Starts.begin();
}

unsigned LineTable::lineStart(unsigned Offset) const { return Starts[line(Offset) - 1]; }

unsigned LineTable::column(unsigned Offset) const { return Offset - lineStart(Offset); }

} // namespace ompp::instrument::model
