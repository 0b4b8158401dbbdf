// Unit tests of telling compilers apart by their predefined macros.
#include "CompilerIdentity.h"

#include <catch2/catch.hpp>

using namespace ompp::driver;
using Family = CompilerIdentity::Family;

TEST_CASE("GCC: __GNUC__ without __clang__, its _OPENMP date", "[identity]") {
  CompilerIdentity Id = identityFromMacros("#define __GNUC__ 12\n"
                                           "#define _OPENMP 201511\n"
                                           "#define __VERSION__ \"12.2.0\"\n");
  CHECK(Id.Kind == Family::GCC);
  CHECK_FALSE(Id.isClang());
  CHECK(Id.OpenMPDate == "201511");
  CHECK(Id.Version == "12.2.0");
  CHECK(Id.familyName() == "gcc");
}

TEST_CASE("Clang defines __GNUC__ too, and is still Clang", "[identity]") {
  CompilerIdentity Id = identityFromMacros("#define __GNUC__ 4\n#define __clang__ 1\n"
                                           "#define _OPENMP 201811\n");
  CHECK(Id.isClang());
  CHECK(Id.OpenMPDate == "201811");
}

TEST_CASE("no macros (the probe failed): an unknown compiler without OpenMP", "[identity]") {
  CompilerIdentity Id = identityFromMacros("");
  CHECK(Id.Kind == Family::Other);
  CHECK(Id.OpenMPDate.empty());
  CHECK_FALSE(Id.isClang());
}
