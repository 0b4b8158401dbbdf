// Unit tests of the compiler-command classification on plain argument lists.
#include "CompilerCommand.h"

#include "clang/Driver/Options.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

using namespace ompp::driver;
namespace opts = clang::driver::options;

namespace {

CompilerCommand parse(std::vector<std::string> Argv) {
  auto Command = CompilerCommand::parse(Argv);
  REQUIRE(static_cast<bool>(Command));
  return std::move(*Command);
}

bool contains(const std::vector<std::string> &Words, const std::string &Word) {
  return std::find(Words.begin(), Words.end(), Word) != Words.end();
}

} // namespace

TEST_CASE("the mode follows the compiler's precedence", "[command]") {
  CHECK(parse({"cc", "a.c"}).mode() == CommandMode::Link);
  CHECK(parse({"cc", "-c", "a.c"}).mode() == CommandMode::Compile);
  CHECK(parse({"cc", "-S", "-c", "a.c"}).mode() == CommandMode::Assemble);
  CHECK(parse({"cc", "-E", "-c", "a.c"}).mode() == CommandMode::Preprocess);
  CHECK(parse({"cc", "-M", "a.c"}).mode() == CommandMode::Preprocess);
  CHECK(parse({"cc", "-MD", "-c", "a.c"}).mode() == CommandMode::Compile);
  CHECK(parse({"cc", "-fsyntax-only", "a.c"}).mode() == CommandMode::SyntaxOnly);
  CHECK(parse({"cc", "--version"}).mode() == CommandMode::Query);
}

TEST_CASE("inputs get their language from the extension or the -x in force", "[command]") {
  CompilerCommand Command =
      parse({"cc", "a.c", "b.cpp", "-x", "c++", "c.c", "-x", "none", "d.s", "e.o", "libf.a"});
  auto Inputs = Command.inputs();
  REQUIRE(Inputs.size() == 6);
  CHECK(Inputs[0].Kind == InputKind::CSource);
  CHECK(Inputs[1].Kind == InputKind::CXXSource);
  CHECK(Inputs[2].Kind == InputKind::CXXSource);
  CHECK(Inputs[2].LanguageSwitch == "c++");
  CHECK(Inputs[3].Kind == InputKind::OtherSource);
  CHECK(Inputs[4].Kind == InputKind::LinkerInput);
  CHECK(Inputs[5].Kind == InputKind::LinkerInput);
  CHECK(parse({"cc", "-c", "h.h"}).inputs()[0].Kind == InputKind::Header);
  CHECK(parse({"cc", "-x", "c-header", "-c", "h"}).inputs()[0].Kind == InputKind::Header);
}

TEST_CASE("a C++ driver takes .c inputs for C++, as clang++ and g++ do", "[command]") {
  auto kindOf = [](std::vector<std::string> Argv) { return parse(std::move(Argv)).inputs()[0].Kind; };
  CHECK(kindOf({"clang++-16", "-c", "a.c"}) == InputKind::CXXSource);
  CHECK(kindOf({"/usr/bin/g++-12", "-c", "a.c"}) == InputKind::CXXSource);
  CHECK(kindOf({"x86_64-linux-gnu-g++", "-c", "a.c"}) == InputKind::CXXSource);
  CHECK(kindOf({"clang-16", "--driver-mode=g++", "-c", "a.c"}) == InputKind::CXXSource);
  CHECK(kindOf({"gcc-12", "-c", "a.c"}) == InputKind::CSource);
  CHECK(kindOf({"clang++", "--driver-mode=gcc", "-c", "a.c"}) == InputKind::CSource);
  CHECK(kindOf({"g++", "-x", "c", "-c", "a.c"}) == InputKind::CSource);
  CHECK(kindOf({"g++", "-c", "h.h"}) == InputKind::Header);
}

TEST_CASE("absolute paths are inputs, not cl.exe-style options", "[command]") {
  CompilerCommand Command = parse({"cc", "-c", "/work/w.c", "/Tc/x.c"});
  REQUIRE(Command.inputs().size() == 2);
  CHECK(Command.inputs()[0].Path == "/work/w.c");
  CHECK(Command.inputs()[0].Kind == InputKind::CSource);
}

TEST_CASE("separate option values are never taken for inputs", "[command]") {
  CompilerCommand Command = parse({"cc", "-c", "-MF", "dep.c", "-include", "pre.h", "-o", "out.o",
                                   "-I", "inc", "-Xlinker", "x.c", "real.c"});
  REQUIRE(Command.inputs().size() == 1);
  CHECK(Command.inputs()[0].Path == "real.c");
  CHECK(Command.output() == std::optional<std::string>("out.o"));
  CHECK(Command.lastValue(opts::OPT_MF) == std::optional<std::string>("dep.c"));
  CHECK(parse({"cc", "-MFjoined.d", "-c", "a.c"}).lastValue(opts::OPT_MF) ==
        std::optional<std::string>("joined.d"));
}

TEST_CASE("Clang's parse flags drop inputs, output, linker, dependency and GCC-only flags",
          "[command]") {
  CompilerCommand Command =
      parse({"gcc", "-fopenmp", "-DX=1", "-Iinc", "-std=c11", "-fipa-pta", "-MD", "-MF", "d.d",
             "-c", "a.c", "-o", "a.o", "-lm", "-Lx", "-Wl,-z,now", "-x", "c++"});
  std::vector<std::string> Flags = Command.clangParseFlags(Command.inputs()[0]);
  for (const char *Kept : {"-fopenmp", "-DX=1", "-Iinc", "-std=c11"})
    CHECK(contains(Flags, Kept));
  for (const char *Dropped : {"-fipa-pta", "-MD", "-MF", "d.d", "-c", "a.c", "-o", "a.o", "-lm",
                              "-Lx", "-Wl,-z,now", "c++"})
    CHECK_FALSE(contains(Flags, Dropped));
  // The input's own language is stated explicitly.
  CHECK(Flags[Flags.size() - 2] == "-x");
  CHECK(Flags.back() == "c");

  std::vector<std::string> Compile = Command.compileOnlyFlags(/*KeepDependencyFlags=*/true);
  CHECK(contains(Compile, "-fipa-pta")); // gcc still gets its own flags
  CHECK(contains(Compile, "-MD"));
  CHECK_FALSE(contains(Compile, "-lm"));
  CHECK_FALSE(contains(Command.compileOnlyFlags(false), "-MD"));
}

TEST_CASE("OpenMP, dependency files and precompiled headers are recognised", "[command]") {
  CHECK(parse({"cc", "-fopenmp", "a.c"}).enablesOpenMP());
  CHECK(parse({"cc", "-fopenmp=libomp", "a.c"}).enablesOpenMP());
  CHECK_FALSE(parse({"cc", "-fopenmp", "-fno-openmp", "a.c"}).enablesOpenMP());
  CHECK(parse({"cc", "-MMD", "-c", "a.c"}).writesDependencyFile());
  CHECK_FALSE(parse({"cc", "-MF", "x.d", "-c", "a.c"}).writesDependencyFile());
  CHECK(parse({"cc", "-include-pch", "p.pch", "-c", "a.c"}).precompiledHeaderUse() ==
        std::optional<std::string>("p.pch"));
  CHECK(parse({"cc", "-Xclang", "-include-pch", "-Xclang", "q.pch", "-c", "a.c"})
            .precompiledHeaderUse() == std::optional<std::string>("q.pch"));
  CHECK_FALSE(parse({"cc", "-c", "a.c"}).precompiledHeaderUse());
}

TEST_CASE("response files are expanded in place", "[command]") {
  std::string Path = "compiler-command-test.rsp";
  std::ofstream(Path) << "-c -o \"out file.o\"\n-DFROM_RSP\n";
  CompilerCommand Command = parse({"cc", "@" + Path, "a.c"});
  std::remove(Path.c_str());
  CHECK(Command.mode() == CommandMode::Compile);
  CHECK(Command.output() == std::optional<std::string>("out file.o"));
  CHECK(Command.inputs().size() == 1);
}

TEST_CASE("a flag missing its value is a one-line error", "[command]") {
  auto Command = CompilerCommand::parse(std::vector<std::string>{"cc", "-c", "a.c", "-o"});
  REQUIRE_FALSE(static_cast<bool>(Command));
  std::string Message = llvm::toString(Command.takeError());
  CHECK(Message.find("'-o' is missing its value") != std::string::npos);
  CHECK(Message.find('\n') == std::string::npos);
}
