// Unit tests of OPARI2's init step as the --opari2-compatible link does it.
#include "RegionRegistration.h"

#include <catch2/catch.hpp>

using namespace ompp::driver;

TEST_CASE("nm output yields the init functions and the summed region counts", "[registration]") {
  // Shaped like `nm -B a.o b.o libc.a`: file headers, undefined symbols, and a
  // duplicate definition (the same object twice) that must count once.
  RegionInitializers Found = parseNmOutput("\n"
                                           "a.o:\n"
                                           "0000000000000000 T POMP2_Init_reg_abc123_7\n"
                                           "                 U POMP2_Parallel_fork\n"
                                           "0000000000000010 T POMP2_USER_Init_reg_abc123_2\n"
                                           "b.o:\n"
                                           "0000000000000000 T _POMP2_Init_reg_zz9_3\n"
                                           "0000000000000000 t POMP2_Init_reg_local_5\n"
                                           "                 U POMP2_Init_reg_undefined_4\n"
                                           "0000000000000000 T POMP2_Init_reg_abc123_7\n");
  CHECK(Found.Functions == std::vector<std::string>{"POMP2_Init_reg_abc123_7",
                                                    "POMP2_Init_reg_zz9_3"});
  CHECK(Found.Regions == 10);
  CHECK(Found.UserFunctions == std::vector<std::string>{"POMP2_USER_Init_reg_abc123_2"});
  CHECK(Found.UserRegions == 2);
  CHECK_FALSE(Found.AlreadyProvided);
}

TEST_CASE("an input that defines POMP2_Init_regions already did the init step",
          "[registration]") {
  CHECK(parseNmOutput("0000000000000000 T POMP2_Init_regions\n").AlreadyProvided);
  CHECK_FALSE(parseNmOutput("                 U POMP2_Init_regions\n").AlreadyProvided);
}

TEST_CASE("symbols without a region count are not init functions", "[registration]") {
  RegionInitializers Found = parseNmOutput("0000000000000000 T POMP2_Init_reg_abc\n"
                                           "0000000000000000 T POMP2_Init_reg_\n"
                                           "0000000000000000 T POMP2_Init_reg_x_\n");
  CHECK(Found.Functions.empty());
  CHECK(Found.Regions == 0);
}

TEST_CASE("the init source calls every init function and returns the counts",
          "[registration]") {
  RegionInitializers Found;
  Found.Functions = {"POMP2_Init_reg_a_3", "POMP2_Init_reg_b_4"};
  Found.UserFunctions = {"POMP2_USER_Init_reg_a_1"};
  Found.Regions = 7;
  Found.UserRegions = 1;
  std::string Source = regionInitSource(Found);
  CHECK(Source.find("extern void POMP2_Init_reg_a_3(void);") != std::string::npos);
  CHECK(Source.find("void POMP2_Init_regions(void) {\n  POMP2_Init_reg_a_3();\n"
                    "  POMP2_Init_reg_b_4();\n}") != std::string::npos);
  CHECK(Source.find("size_t POMP2_Get_num_regions(void) { return 7; }") != std::string::npos);
  CHECK(Source.find("void POMP2_USER_Init_regions(void) {\n  POMP2_USER_Init_reg_a_1();\n}") !=
        std::string::npos);
  CHECK(Source.find("size_t POMP2_USER_Get_num_regions(void) { return 1; }") != std::string::npos);
}
