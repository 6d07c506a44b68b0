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
/// Memory: a Module owns an Arena (a BumpPtrAllocator), and the IR holds no
/// std::string: every name, key, word, reference and type is a StringRef
/// into the arena or at a literal of the program, and a list value's
/// elements are an array in the arena.  Operands, attributes and regions
/// are SmallVectors and std::vectors.
///
//===----------------------------------------------------------------------===//
#ifndef TP_TILEIR_TILEIR_H
#define TP_TILEIR_TILEIR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace tp {
namespace tile {

/// The storage of a module's text and lists: every string an Op, Value,
/// Attr, Param or Kernel holds is a StringRef into it, into the program's
/// static strings (the op names, keys and words the passes spell), or into
/// nothing else.  One allocator a module, freed with it: the IR holds no
/// std::string and no per-string heap block.
class Arena {
public:
  /// \p S, copied into the arena (the empty string is not copied).
  llvm::StringRef save(llvm::StringRef S) {
    return S.empty() ? llvm::StringRef() : Saver.save(S);
  }
  /// \p S spelled and copied into the arena (spelled on the stack, not in a
  /// std::string as StringSaver::save(const Twine &) does).
  llvm::StringRef save(const llvm::Twine &S) {
    llvm::SmallString<64> Buffer;
    return save(S.toStringRef(Buffer));
  }
  /// Room for \p N objects of \p T (uninitialized), in the arena.
  template <typename T> T *allocate(size_t N) {
    return Alloc.Allocate<T>(N);
  }
  /// Bytes the arena holds (its slabs).
  size_t getTotalMemory() const { return Alloc.getTotalMemory(); }

private:
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver{Alloc};
};

/// An operand or attribute value.  Its text (a word, ref without '%',
/// symbol or string: str()) outlives the module (its Arena, or a literal);
/// a list's elements are an array in the module's Arena (elems()).
struct Value {
  enum Kind : uint8_t { Int, Word, Ref, Symbol, String, List };
  Kind K = Int;
  int64_t I = 0;               ///< the integer (Int only)
  llvm::StringRef Text;        ///< the text (Word, Ref, Symbol, String)
  llvm::ArrayRef<Value> Elems; ///< the elements (List)
  llvm::SMLoc Loc;

  Value() = default;
  /// A word, ref, symbol or string \p Text at \p L (\p Text outlives the
  /// module).
  Value(Kind K, llvm::StringRef Text, llvm::SMLoc L)
      : K(K), Text(Text), Loc(L) {}

  static Value makeInt(int64_t V, llvm::SMLoc L = {}) {
    Value R;
    R.I = V;
    R.Loc = L;
    return R;
  }
  /// A word (\p W outlives the module: a literal or saved in its Arena).
  static Value makeWord(llvm::StringRef W, llvm::SMLoc L = {}) {
    return Value(Word, W, L);
  }
  /// A reference %\p N (\p N outlives the module).
  static Value makeRef(llvm::StringRef N, llvm::SMLoc L = {}) {
    return Value(Ref, N, L);
  }
  /// The list \p Elems, copied into \p A.
  static Value makeList(Arena &A, llvm::ArrayRef<Value> Elems,
                        llvm::SMLoc L = {});
  bool isInt() const { return K == Int; }
  bool isWord() const { return K == Word; }
  bool isRef() const { return K == Ref; }
  /// The text of a word, ref, symbol or string ("" for the other kinds).
  llvm::StringRef str() const {
    return K == Int || K == List ? llvm::StringRef() : Text;
  }
  /// Makes this value kind \p NewK with text \p NewText (which outlives the
  /// module).
  void setText(Kind NewK, llvm::StringRef NewText) {
    K = NewK;
    Text = NewText;
  }
  /// A list's elements (none for the other kinds).
  llvm::ArrayRef<Value> elems() const {
    return K == List ? Elems : llvm::ArrayRef<Value>();
  }
  void print(llvm::raw_ostream &OS) const;
};

/// key=value.  The key outlives the module (a literal or saved in its
/// Arena).
struct Attr {
  llvm::StringRef Key;
  Value Val;
  /// Where the key is; invalid when it is where the value is (the
  /// attributes the passes build).
  llvm::SMLoc KeyLoc;

  Attr() = default;
  /// Key \p K with an integer value 0, both at \p L.
  Attr(llvm::StringRef K, llvm::SMLoc L) : Key(K) { Val.Loc = L; }

  /// Where the key is.
  llvm::SMLoc getLoc() const { return KeyLoc.isValid() ? KeyLoc : Val.Loc; }
};

struct Op;
using ValueList = llvm::SmallVector<Value, 0>;
using AttrList = llvm::SmallVector<Attr, 0>;
/// An op's region.
using OpList = std::vector<Op>;

/// One op.  Its strings (Result, Name, the type, and those of its values
/// and attributes) outlive the module: literals (the names and keys the
/// passes spell) or text saved in the module's Arena.  Copying an op copies
/// its operand, attribute and region lists and shares the strings: a copy
/// is valid while the module that owns the strings lives.
struct Op {
  llvm::StringRef Result; ///< defined value name without '%', or empty
  llvm::StringRef Name;   ///< e.g. "tp.matmul"
  ValueList Operands;
  AttrList Attrs;
  OpList Body;
  llvm::SMLoc Loc;

  Op() = default;
  /// An op named \p Name (which outlives the module: a literal).
  Op(llvm::StringRef Name, llvm::SMLoc Loc) : Name(Name), Loc(Loc) {}

  /// The type: the tokens after ':' joined by single spaces ("" for none).
  llvm::StringRef getType() const { return Type; }
  /// Where the type starts (invalid for none).
  llvm::SMLoc getTypeLoc() const { return TypeLoc; }
  /// Gives the op type \p Text (which outlives the module) at \p L.
  void setType(llvm::StringRef Text, llvm::SMLoc L) {
    Type = Text;
    TypeLoc = L;
  }
  /// Whether the op has a region (`{ ... }`, perhaps empty).
  bool hasRegion() const { return HasRegion; }
  void setHasRegion(bool R = true) { HasRegion = R; }

  const Attr *getAttr(llvm::StringRef Key) const;
  Attr *getAttr(llvm::StringRef Key);
  /// The integer attribute \p Key, if present and an integer.
  llvm::Optional<int64_t> getInt(llvm::StringRef Key) const;
  /// The word attribute \p Key, or "" when absent or not a word.
  llvm::StringRef getWord(llvm::StringRef Key) const;
  /// Sets (or appends) an attribute.  Every key, word and name given to the
  /// setters below outlives the module (a literal, or saved in its Arena).
  Op &set(llvm::StringRef Key, Value V);
  /// set(Key, Value::makeInt(V, Loc)).
  Op &setInt(llvm::StringRef Key, int64_t V);
  /// set(Key, Value::makeWord(W, Loc)).
  Op &setWord(llvm::StringRef Key, llvm::StringRef W);
  /// Appends attribute \p Key, which the op must not have yet (an op being
  /// built, whose keys the caller knows).  Use set() when the key may be
  /// present.
  Op &addInt(llvm::StringRef Key, int64_t V) {
    appendAttr(Key).Val.I = V;
    return *this;
  }
  Op &addWord(llvm::StringRef Key, llvm::StringRef W) {
    appendAttr(Key).Val.setText(Value::Word, W);
    return *this;
  }
  /// A reference `%Name` (at the op's location).
  Op &addRef(llvm::StringRef Key, llvm::StringRef Name) {
    appendAttr(Key).Val.setText(Value::Ref, Name);
    return *this;
  }
  /// Appends operand `%Name` at \p L.
  Op &addRefOperand(llvm::StringRef Name, llvm::SMLoc L) {
    Operands.emplace_back(Value::Ref, Name, L);
    return *this;
  }
  void removeAttr(llvm::StringRef Key);
  Op &addOperand(Value V) {
    Operands.push_back(V);
    return *this;
  }
  Op &add(Op Child) {
    setHasRegion();
    Body.push_back(std::move(Child));
    return Body.back();
  }
  /// The first op named \p Name in the region (not nested), or null.
  Op *find(llvm::StringRef Name);
  const Op *find(llvm::StringRef Name) const;

  /// The attribute \p Key, appended (not yet present) with an integer
  /// value 0 at this op's location; the caller fills its value.
  Attr &appendAttr(llvm::StringRef Key) {
    return Attrs.emplace_back(Key, Loc);
  }

private:
  llvm::StringRef Type;
  llvm::SMLoc TypeLoc;
  bool HasRegion = false;
};

struct Param {
  llvm::StringRef Name; ///< without '%'
  llvm::StringRef Elem; ///< f16, bf16 or f32 (a pointer), or f32 / i32 (a value)
  bool Scalar = false; ///< a value (`f32` or `i32`, 4 bytes), not `ptr<...>`
  llvm::SMLoc Loc;
};

struct Kernel {
  llvm::StringRef Name; ///< without '@'
  std::vector<Param> Params;
  AttrList Attrs;
  std::vector<Op> Body;
  llvm::SMLoc Loc;

  llvm::Optional<int64_t> getInt(llvm::StringRef Key) const;
  llvm::StringRef getWord(llvm::StringRef Key) const;
  /// The kernel's one tp.matmul, or null.
  Op *getMatmul();
  const Op *getMatmul() const;
};

/// A parsed .tp file: one or more kernels, and the Arena that holds their
/// strings and lists.  Move-only (the arena moves with it; its contents do
/// not move, so the StringRefs stay valid); a module is never copied.
struct Module {
  std::unique_ptr<Arena> Strings = std::make_unique<Arena>();
  std::vector<Kernel> Kernels;

  Module() = default;
  Module(Module &&) = default;
  Module &operator=(Module &&) = default;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  /// \p S saved in the module's Arena.
  llvm::StringRef save(llvm::StringRef S) { return Strings->save(S); }
  llvm::StringRef save(const llvm::Twine &S) { return Strings->save(S); }
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
