// profile_builder.hpp - hand-built model::Profile objects for exact rule
// checks: regions, nodes and per-thread metrics spelled out in the test.
#pragma once

#include <initializer_list>

#include "model/profile.hpp"

namespace ompp::test {

class ProfileBuilder {
public:
    ProfileBuilder(double wall_time_s, std::uint32_t threads) {
        profile_.application = "test";
        profile_.wall_time_s = wall_time_s;
        profile_.threads = threads;
        profile_.nodes.push_back({0, std::nullopt, model::NodeKind::Root, std::nullopt, {}, {}});
    }

    std::uint32_t region(model::RegionKind kind, int first_line = 1, int last_line = 2) {
        auto id = static_cast<std::uint32_t>(profile_.regions.size() + 1);
        model::Region r;
        r.id = id;
        r.kind = kind;
        r.directive = {"test.c", first_line, first_line};
        r.block_end = {"test.c", last_line, last_line};
        profile_.regions.push_back(r);
        return id;
    }

    // A node under `parent`; returns its id.
    std::uint32_t node(std::uint32_t parent, model::NodeKind kind, std::optional<std::uint32_t> region,
                       std::vector<model::ThreadMetrics> threads = {}) {
        auto id = static_cast<std::uint32_t>(profile_.nodes.size());
        profile_.nodes.push_back({id, parent, kind, region, std::move(threads), {}});
        return id;
    }
    std::uint32_t region_node(std::uint32_t parent, std::uint32_t region, std::vector<model::ThreadMetrics> threads) {
        return node(parent, model::NodeKind::Region, region, std::move(threads));
    }

    model::Node& at(std::uint32_t node) { return profile_.nodes.at(node); }
    model::Profile& profile() { return profile_; }

private:
    model::Profile profile_;
};

// Metrics with inclusive time and visits; other fields set by the test.
inline model::ThreadMetrics metrics(std::uint32_t thread, double inclusive_s, std::uint64_t visits = 1) {
    model::ThreadMetrics m;
    m.thread = thread;
    m.inclusive_s = inclusive_s;
    m.exclusive_s = inclusive_s;
    m.visits = visits;
    return m;
}

}  // namespace ompp::test
