// control_flow.hpp - the control-flow view of the ompP CFG paper (Fürlinger &
// Skinner): for every call-tree node, which node was active right before it
// was entered (its parent, or the sibling exited just before) and how often,
// per thread.  The core records the counts; this module groups threads with
// identical counts into edge labels ("0-3|5": threads 0 to 3 each took the
// edge 5 times) and renders the graph layer by layer (a parent and its
// children) as a text section.  The whole graph as Graphviz is drawn from
// the JSON profile by `ompp-view cfg`, the one graph renderer.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/profile.hpp"

namespace ompp::analyses {

// (thread, count) pairs -> "0-3,5|7, 4|2": threads with the same count share
// one group, written as thread ranges; groups ordered by their first thread.
std::string group_threads(std::vector<std::pair<std::uint32_t, std::uint64_t>> counts);

// "Control Flow" text section.
void append_control_flow_report(std::string& out, const model::Profile& profile);

}  // namespace ompp::analyses
