//===--- InlineHeaders.cpp - bring headers with OpenMP code into the unit -===//
#include "rewriter/InlineHeaders.h"

#include "emit/Emit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <map>

namespace ompp::instrument {

namespace {

/// Why Text cannot stand in for its `#include`: a header that relies on
/// being its own file.
std::optional<std::string> notInlinable(llvm::StringRef Text) {
  static const llvm::Regex Once("(^|\n)[ \t]*#[ \t]*pragma[ \t]+once");
  static const llvm::Regex Next("(^|\n)[ \t]*#[ \t]*(include_next|import)[ \t]");
  if (Once.match(Text))
    return std::string("it uses #pragma once");
  if (Next.match(Text))
    return std::string("it uses #include_next or #import");
  return std::nullopt;
}

/// The header's name in `#line` (and so in CTC strings and diagnostics):
/// relative to the main file's directory as the command line names it when
/// the header lies below that directory.
std::string displayName(llvm::StringRef Header, llvm::StringRef MainName) {
  llvm::SmallString<256> MainDir(MainName);
  llvm::sys::fs::make_absolute(MainDir);
  llvm::sys::path::remove_filename(MainDir);
  llvm::SmallString<256> Path(Header);
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  llvm::StringRef Rest = Path;
  if (!Rest.consume_front(MainDir) || !Rest.consume_front("/"))
    return Path.str().str();
  llvm::SmallString<256> Shown(llvm::sys::path::parent_path(MainName));
  llvm::sys::path::append(Shown, Rest);
  return Shown.str().str();
}

} // namespace

std::optional<InlinedHeaders> inlineHeaders(model::UnitModel &Unit, llvm::StringRef MainName) {
  // The main-file includes to replace, by offset, with the header's text.
  std::map<unsigned, std::pair<const model::MainFileInclude *, std::string>> Inline;
  for (model::HeaderDirectives &H : Unit.HeaderPragmas) {
    const model::MainFileInclude *Include = nullptr;
    for (const model::MainFileInclude &I : Unit.Includes)
      if (I.Directive.Begin <= H.IncludeOffset && H.IncludeOffset <= I.Directive.End)
        Include = &I;
    if (!Include) {
      H.NotInlined = "its #include is not a line of the main file";
      continue;
    }
    if (Inline.count(Include->Directive.Begin))
      continue;
    auto Buffer = llvm::MemoryBuffer::getFile(Include->Path);
    if (!Buffer) {
      H.NotInlined = "it cannot be read: " + Buffer.getError().message();
      continue;
    }
    llvm::StringRef Text = (*Buffer)->getBuffer();
    if (auto Why = notInlinable(Text)) {
      H.NotInlined = *Why;
      continue;
    }
    Inline.emplace(Include->Directive.Begin, std::make_pair(Include, Text.str()));
  }
  if (Inline.empty())
    return std::nullopt;

  InlinedHeaders Out;
  unsigned Copied = 0;
  for (const auto &[Offset, Entry] : Inline) {
    const auto &[Include, Text] = Entry;
    Out.Text.append(Unit.Text, Copied, Offset - Copied);
    Out.Text += "#line 1 " + emit::cStringLiteral(displayName(Include->Path, MainName)) + "\n" + Text;
    if (!Text.empty() && Text.back() != '\n')
      Out.Text += '\n';
    Out.Text += "#line " + std::to_string(Include->NextLine) + " " +
                emit::cStringLiteral(Include->NextFile.empty() ? MainName : Include->NextFile);
    Copied = Include->Directive.End;

    llvm::SmallString<256> Dir(Include->Path);
    llvm::sys::fs::make_absolute(Dir);
    llvm::sys::path::remove_filename(Dir);
    if (!llvm::is_contained(Out.QuoteDirs, Dir.str()))
      Out.QuoteDirs.push_back(Dir.str().str());
  }
  Out.Text.append(Unit.Text, Copied);
  return Out;
}

} // namespace ompp::instrument
