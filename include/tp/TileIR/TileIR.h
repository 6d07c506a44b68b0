//===- TileIR.h - The tile IR: kernels, ops, attributes ---------*- C++ -*-===//
///
/// \file
/// The tile IR is a tree of generic operations, one per line:
///
///   op      ::= [ '%'name '=' ] opname [ operand (',' operand)* ]
///               ( key '=' value )* [ ':' type-token* ] [ '{' NL op* '}' ] NL
///   operand ::= value
///   value   ::= integer | word | '%'name | '@'name | '"'string'"'
///             | '[' value (',' value)* ']'
///   kernel  ::= 'tp.kernel' '@'name '(' param (',' param)* ')'
///               ( key '=' value )* '{' NL op* '}' NL
///   param   ::= '%'name ':' ( 'ptr' '<' ('f16' | 'bf16' | 'f32') '>' | 'f32'
///                                 | 'i32' )
///
/// `//` starts a comment.  The printer writes exactly this grammar with two
/// spaces of indentation a level, integers in decimal, so print(parse(x)) ==
/// x for every printed x.  Every op and attribute keeps the location it was
/// parsed from (ops that a pass creates take the location of the op they
/// derive from), so diagnostics point into the input file.
///
/// What each op means, and which passes create it, is in TileOps.h; the
/// verifier (verifyModule) checks both the generic shape and every op's
/// schema.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TILEIR_TILEIR_H
#define TP_TILEIR_TILEIR_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tp {
namespace tile {

/// An operand or attribute value.
struct Value {
  enum Kind { Int, Word, Ref, Symbol, String, List };
  Kind K = Int;
  int64_t I = 0;
  std::string S;            ///< word, ref (without '%'), symbol, string
  std::vector<Value> Elems; ///< list elements
  llvm::SMLoc Loc;

  Value() = default;
  /// A word, ref, symbol or string \p Text at \p L, built in place.
  Value(Kind K, llvm::StringRef Text, llvm::SMLoc L)
      : K(K), S(Text.data(), Text.size()), Loc(L) {}

  static Value makeInt(int64_t V, llvm::SMLoc L = {}) {
    Value R;
    R.K = Int;
    R.I = V;
    R.Loc = L;
    return R;
  }
  static Value makeWord(llvm::StringRef W, llvm::SMLoc L = {}) {
    Value R;
    R.K = Word;
    R.S = W.str();
    R.Loc = L;
    return R;
  }
  static Value makeRef(llvm::StringRef N, llvm::SMLoc L = {}) {
    Value R;
    R.K = Ref;
    R.S = N.str();
    R.Loc = L;
    return R;
  }
  bool isInt() const { return K == Int; }
  bool isWord() const { return K == Word; }
  bool isRef() const { return K == Ref; }
  void print(llvm::raw_ostream &OS) const;
};

struct Attr {
  std::string Key;
  Value Val;
  llvm::SMLoc Loc;

  Attr() = default;
  /// Key \p K with an integer value 0, all at \p L.
  Attr(llvm::StringRef K, llvm::SMLoc L) : Key(K.data(), K.size()), Loc(L) {
    Val.Loc = L;
  }
};

struct Op {
  std::string Result; ///< defined value name without '%', or empty
  std::string Name;   ///< e.g. "tp.matmul"
  std::vector<Value> Operands;
  std::vector<Attr> Attrs;
  std::string Type; ///< the tokens after ':' joined by single spaces
  llvm::SMLoc TypeLoc; ///< where the type starts (when parsed)
  bool HasRegion = false;
  std::vector<Op> Body;
  llvm::SMLoc Loc;

  Op() = default;
  Op(llvm::StringRef Name, llvm::SMLoc Loc) : Name(Name.str()), Loc(Loc) {}

  const Attr *getAttr(llvm::StringRef Key) const;
  Attr *getAttr(llvm::StringRef Key);
  /// The integer attribute \p Key, if present and an integer.
  llvm::Optional<int64_t> getInt(llvm::StringRef Key) const;
  /// The word attribute \p Key, or "" when absent or not a word.
  llvm::StringRef getWord(llvm::StringRef Key) const;
  /// Sets (or appends) an attribute.
  Op &set(llvm::StringRef Key, Value V);
  /// set(Key, Value::makeInt(V, Loc)), built in place.
  Op &setInt(llvm::StringRef Key, int64_t V);
  /// set(Key, Value::makeWord(W, Loc)), built in place.
  Op &setWord(llvm::StringRef Key, llvm::StringRef W);
  /// Appends attribute \p Key, which the op must not have yet (an op being
  /// built, whose keys the caller knows): no search, built in place.  Use
  /// set() when the key may be present.
  Op &addInt(llvm::StringRef Key, int64_t V);
  Op &addWord(llvm::StringRef Key, llvm::StringRef W);
  /// A reference `%Name` (at the op's location).
  Op &addRef(llvm::StringRef Key, llvm::StringRef Name);
  /// Appends operand `%Name` at \p L, built in place.
  Op &addRefOperand(llvm::StringRef Name, llvm::SMLoc L) {
    Operands.emplace_back(Value::Ref, Name, L);
    return *this;
  }
  void removeAttr(llvm::StringRef Key);
  Op &addOperand(Value V) {
    Operands.push_back(std::move(V));
    return *this;
  }
  Op &add(Op Child) {
    HasRegion = true;
    Body.push_back(std::move(Child));
    return Body.back();
  }
  /// The first op named \p Name in the region (not nested), or null.
  Op *find(llvm::StringRef Name);
  const Op *find(llvm::StringRef Name) const;

private:
  Attr &appendAttr(llvm::StringRef Key);
};

struct Param {
  std::string Name; ///< without '%'
  std::string Elem; ///< f16, bf16 or f32 (a pointer), or f32 / i32 (a value)
  bool Scalar = false; ///< a value (`f32` or `i32`, 4 bytes), not `ptr<...>`
  llvm::SMLoc Loc;
};

struct Kernel {
  std::string Name; ///< without '@'
  std::vector<Param> Params;
  std::vector<Attr> Attrs;
  std::vector<Op> Body;
  llvm::SMLoc Loc;

  llvm::Optional<int64_t> getInt(llvm::StringRef Key) const;
  llvm::StringRef getWord(llvm::StringRef Key) const;
  /// The kernel's one tp.matmul, or null.
  Op *getMatmul();
  const Op *getMatmul() const;
};

/// A parsed .tp file: one or more kernels.
struct Module {
  std::vector<Kernel> Kernels;
};

/// Parses buffer \p BufferID of \p SM.  Errors are SourceErrors.
llvm::Expected<Module> parseModule(llvm::SourceMgr &SM, unsigned BufferID);

/// Prints \p M in the canonical form.
void printModule(const Module &M, llvm::raw_ostream &OS);
void printOp(const Op &O, llvm::raw_ostream &OS, unsigned Indent);

/// Checks the generic structure and every op's schema (see TileOps.h).
llvm::Error verifyModule(const Module &M, const llvm::SourceMgr &SM);

} // namespace tile
} // namespace tp

#endif // TP_TILEIR_TILEIR_H
