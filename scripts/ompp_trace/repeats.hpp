// repeats.hpp - back-to-back copies of a block in a sequence: how the
// critical path's text folds the thousand iterations of a loop into one
// block of lines.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>

namespace ompp::trace_tool {

// `count` back-to-back copies of a block of `period` items.
struct Repeat {
    std::size_t period = 1;
    std::size_t count = 1;
    std::size_t items() const { return period * count; }
};

// The longest block looked for: a loop iteration whose critical path takes
// more steps than this is printed step by step.
inline constexpr std::size_t kMaxRepeatPeriod = 16;

// The repeat at the front of `items` that covers most of them (of equals,
// the shortest block), or a single item ({1, 1}) when no repeat would
// print at least two lines fewer.  `same(a, b)`: a and b are alike.
template <typename T, typename Same>
Repeat repeat_at_front(std::span<const T> items, Same same) {
    Repeat best;
    for (std::size_t period = 1; period <= kMaxRepeatPeriod && 2 * period <= items.size(); ++period) {
        std::size_t count = 1;
        while ((count + 1) * period <= items.size() &&
               std::equal(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(period),
                          items.begin() + static_cast<std::ptrdiff_t>(count * period), same)) {
            ++count;
        }
        if ((count - 1) * period >= 2 && count * period > best.items()) best = {period, count};
    }
    return best;
}

}  // namespace ompp::trace_tool
