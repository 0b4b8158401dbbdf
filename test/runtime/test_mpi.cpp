// MPI + OpenMP (docs/mpi.md): the launcher's rank, and MPI calls as regions
// entered through libompp_mpi's entry points (driven here directly).
#include <catch2/catch.hpp>

#include <pomp2/pomp2_ompp.h>

#include <map>
#include <string>

#include "adapter/lifecycle.hpp"
#include "config/launcher.hpp"
#include "event_stream.hpp"
#include "writers/json_writer.hpp"
#include "writers/text_writer.hpp"

using namespace ompp;
using model::NodeKind;
using test::find_child;
using test::thread_of;

namespace {

config::Config::Lookup environment(std::map<std::string, std::string> variables) {
    return [variables = std::move(variables)](const char* name) -> const char* {
        const auto it = variables.find(name);
        return it == variables.end() ? nullptr : it->second.c_str();
    };
}

const model::Region* region_named(const model::Profile& p, model::RegionKind kind, const std::string& name) {
    for (const auto& region : p.regions) {
        if (region.kind == kind && region.name == name) return &region;
    }
    return nullptr;
}

}  // namespace

TEST_CASE("the launcher's environment gives rank and world size", "[mpi]") {
    const auto open_mpi = config::launched_rank(environment({{"OMPI_COMM_WORLD_RANK", "3"},
                                                             {"OMPI_COMM_WORLD_SIZE", "4"},
                                                             {"SLURM_PROCID", "0"},
                                                             {"SLURM_NTASKS", "1"}}));
    REQUIRE(open_mpi);
    CHECK(open_mpi->rank == 3);
    CHECK(open_mpi->size == 4);
    const auto pmi = config::launched_rank(environment({{"PMI_RANK", "1"}, {"PMI_SIZE", "2"}}));
    REQUIRE(pmi);
    CHECK(pmi->rank == 1);
    const auto slurm = config::launched_rank(environment({{"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "8"}}));
    REQUIRE(slurm);
    CHECK(slurm->rank == 5);
    CHECK(slurm->size == 8);
    CHECK_FALSE(config::launched_rank(environment({})));
    CHECK_FALSE(config::launched_rank(environment({{"PMI_RANK", "2"}, {"PMI_SIZE", "2"}})));   // rank >= size
    CHECK_FALSE(config::launched_rank(environment({{"PMI_RANK", "x1"}, {"PMI_SIZE", "2"}})));  // not a number
    CHECK_FALSE(config::launched_rank(environment({{"PMI_RANK", "1"}})));                      // no size
}

TEST_CASE("MPI calls are MPI regions in the caller's call path, with count, time and bytes", "[mpi][adapter]") {
    test::ManualClock clock;
    adapter::restart_for_testing(clock.clock(), config::Config::defaults());
    static POMP2_Region_handle outer = nullptr, allreduce = nullptr, barrier = nullptr;
    POMP2_USER_Begin_named(&outer, "solver", "solver.c", 10);
    for (int call = 0; call < 2; ++call) {
        clock.at(2000 + 100 * call);
        POMP2_MPI_Begin(&allreduce, "MPI_Allreduce");
        clock.at(2030 + 100 * call);
        POMP2_MPI_End(&allreduce, 8);
    }
    clock.at(2500);
    POMP2_USER_End_named("solver", "solver.c", 20);
    POMP2_MPI_Begin(&barrier, "MPI_Barrier");
    clock.at(2600);
    POMP2_MPI_End(&barrier, 0);
    POMP2_MPI_Process(1, 4);
    const model::Profile p = adapter::finished_profile(*adapter::g_gate.load(), config::Config::defaults());

    const auto* solver = region_named(p, model::RegionKind::UserRegion, "solver");
    const auto* reduce = region_named(p, model::RegionKind::Mpi, "MPI_Allreduce");
    const auto* wait = region_named(p, model::RegionKind::Mpi, "MPI_Barrier");
    REQUIRE(solver != nullptr);
    REQUIRE(reduce != nullptr);
    REQUIRE(wait != nullptr);
    const auto* solver_node = find_child(p, 0, NodeKind::Region, solver->id);
    REQUIRE(solver_node != nullptr);
    const auto* reduce_node = find_child(p, solver_node->id, NodeKind::Region, reduce->id);
    REQUIRE(reduce_node != nullptr);
    CHECK(thread_of(*reduce_node, 0)->visits == 2);
    CHECK(thread_of(*reduce_node, 0)->bytes == 16);
    CHECK(thread_of(*reduce_node, 0)->inclusive_s == Approx(60e-9));
    const auto* barrier_node = find_child(p, 0, NodeKind::Region, wait->id);
    REQUIRE(barrier_node != nullptr);
    CHECK(thread_of(*barrier_node, 0)->visits == 1);
    CHECK(p.warnings.empty());

    REQUIRE(p.mpi);
    CHECK(p.mpi->rank == 1);
    CHECK(p.mpi->size == 4);
    CHECK_FALSE(p.mpi->host.empty());
    const nlohmann::json json = writers::to_json(p);
    CHECK(json["mpi"]["rank"] == 1);
    CHECK(json["mpi"]["size"] == 4);
    CHECK(json["nodes"][reduce_node->id]["threads"][0]["bytes"] == 16);
    CHECK_FALSE(json["nodes"][solver_node->id]["threads"][0].contains("bytes"));
    const std::string text = writers::to_text(p, {});
    CHECK(text.find("MPI Rank        : 1 of 4 (host ") != std::string::npos);
    CHECK(text.find("MPI library 'MPI_Allreduce' MPI\n TID      execT      execC      bytes") != std::string::npos);
}

TEST_CASE("a profile without an MPI process has no rank in its JSON or report", "[mpi][writers]") {
    model::Profile p;
    p.application = "plain";
    CHECK_FALSE(writers::to_json(p).contains("mpi"));
    CHECK(writers::to_text(p, {}).find("MPI Rank") == std::string::npos);
}
