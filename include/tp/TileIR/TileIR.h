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
/// Memory: a Module owns an Arena, and the IR holds no std::string -- every
/// name, key, word, reference and type is a StringRef into the arena or at
/// a literal of the program; a list value's elements and, when a pass
/// reserves them there, an op's operands and attributes are arrays in the
/// arena too.  An op's name, its result's and its attributes' keys are
/// 8-byte Idents, its region one pointer (OpList).  The records are small
/// (Value 24 bytes, Attr 32, Op 72) and a module frees everything at once
/// (docs/speed.md, "The tile IR's footprint" and "... again").
///
//===----------------------------------------------------------------------===//
#ifndef TP_TILEIR_TILEIR_H
#define TP_TILEIR_TILEIR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/PointerIntPair.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemAlloc.h"
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

/// An op's name, an attribute's key or a defined value's name: a StringRef
/// in 8 bytes.  The length (at most MaxSize) takes the low 16 bits and the
/// text's address the high 48: user-space addresses on the hosts tp builds
/// for (x86-64, AArch64) have 48 bits, and both halves read back in one
/// instruction each.  The text outlives the module (a literal, or saved in
/// its Arena).  Reads convert it to a StringRef.
class Ident {
public:
  /// The longest text an Ident holds (the parser refuses longer names).
  static constexpr size_t MaxSize = 0xffff;

  Ident() = default;
  explicit Ident(llvm::StringRef S) : Bits(pack(S.data(), S.size())) {}

  const char *data() const {
    return reinterpret_cast<const char *>(uintptr_t(Bits >> SizeBits));
  }
  size_t size() const { return size_t(Bits & MaxSize); }
  bool empty() const { return size() == 0; }
  char operator[](size_t I) const { return data()[I]; }
  llvm::StringRef ref() const { return llvm::StringRef(data(), size()); }
  operator llvm::StringRef() const { return ref(); }
  std::string str() const { return ref().str(); }

  /// Whether the text is \p S (the lengths compared first).
  bool equals(llvm::StringRef S) const {
    return size() == S.size() &&
           (S.empty() || std::memcmp(data(), S.data(), S.size()) == 0);
  }
  friend bool operator==(Ident L, Ident R) { return L.equals(R.ref()); }
  friend bool operator==(Ident L, llvm::StringRef R) { return L.equals(R); }
  friend bool operator==(llvm::StringRef L, Ident R) { return R.equals(L); }
  friend bool operator!=(Ident L, Ident R) { return !(L == R); }
  friend bool operator!=(Ident L, llvm::StringRef R) { return !(L == R); }
  friend bool operator!=(llvm::StringRef L, Ident R) { return !(L == R); }

private:
  static constexpr unsigned SizeBits = 16;
  static uint64_t pack(const char *P, size_t N) {
    uint64_t Address = uint64_t(uintptr_t(P));
    assert(N <= MaxSize && "a name the parser would refuse");
    assert(!(Address >> (64 - SizeBits)) && "an address above 48 bits");
    return Address << SizeBits | uint64_t(N);
  }
  uint64_t Bits = 0;
};

/// An operand or attribute value: 24 bytes, no heap of its own.  Its text
/// (a word, ref without '%', symbol or string: str()) outlives the module
/// (its Arena, or a literal); a list's elements are an array in the
/// module's Arena (elems()).  One pointer and length hold either, and the
/// integer shares the pointer's bytes: read I only of an Int (isInt()).
struct Value {
  enum Kind : uint8_t { Int, Word, Ref, Symbol, String, List };
  Kind K = Int;
  /// Free for the record that holds the value (Attr: where its key is;
  /// an op's operand: its link()).
  uint8_t Spare[3] = {0, 0, 0};
  uint32_t Len = 0; ///< the text's length, or the list's
  union {
    int64_t I = 0;    ///< an integer (Int only)
    const void *Data; ///< the text, or the list's elements (not Int)
  };
  llvm::SMLoc Loc;

  Value() = default;
  /// A word, ref, symbol or string \p Text at \p L (\p Text outlives the
  /// module).
  Value(Kind K, llvm::StringRef Text, llvm::SMLoc L)
      : K(K), Len(uint32_t(Text.size())), Data(Text.data()), Loc(L) {}

  static Value makeInt(int64_t V, llvm::SMLoc L = {}) {
    Value R;
    R.K = Int;
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
    return K == Int || K == List
               ? llvm::StringRef()
               : llvm::StringRef(static_cast<const char *>(Data), Len);
  }
  /// Makes this value kind \p NewK with text \p Text (which outlives the
  /// module).
  void setText(Kind NewK, llvm::StringRef Text) {
    K = NewK;
    Data = Text.data();
    Len = uint32_t(Text.size());
  }
  /// An operand's link: a number below 2^24 that the pass reading the IR
  /// gives a reference operand, for itself alone (tp-select: the id of its
  /// name, set by its walk before lowering reads it back).  Not printed,
  /// parsed, compared or kept: a builder's operand may hold anything here
  /// (an attribute's value copied in), so a pass reads only the links it
  /// set.  Not for an attribute's value, whose spare bytes are its key's
  /// location.
  uint32_t link() const {
    return uint32_t(Spare[0]) | uint32_t(Spare[1]) << 8 |
           uint32_t(Spare[2]) << 16;
  }
  void setLink(uint32_t L) {
    assert(L < (1u << 24) && "a link is 24 bits");
    Spare[0] = uint8_t(L);
    Spare[1] = uint8_t(L >> 8);
    Spare[2] = uint8_t(L >> 16);
  }
  /// A list's elements (none for the other kinds).
  llvm::ArrayRef<Value> elems() const {
    return K == List ? llvm::ArrayRef<Value>(static_cast<const Value *>(Data),
                                             Len)
                     : llvm::ArrayRef<Value>();
  }
  void print(llvm::raw_ostream &OS) const;
};

/// key=value, 32 bytes.  The key outlives the module (a literal or saved
/// in its Arena).  The key's location is not stored: it is the value's
/// less a distance kept in the value's spare bytes (24 bits, signed; the
/// parser's keys are on their value's line, and a pass's attributes have
/// the key and the value at one place).
struct Attr {
  Ident Key;
  Value Val;

  /// The farthest a key may be from its value, in bytes either way.
  static constexpr ptrdiff_t MaxKeyDistance = (ptrdiff_t(1) << 23) - 1;

  Attr() = default;
  /// Key \p K with an integer value 0, both at \p L.
  Attr(llvm::StringRef K, llvm::SMLoc L) : Key(K) { Val.Loc = L; }

  /// Where the key is (the value's location when the two are one).
  llvm::SMLoc getLoc() const {
    uint32_t Bits = uint32_t(Val.Spare[0]) | uint32_t(Val.Spare[1]) << 8 |
                    uint32_t(Val.Spare[2]) << 16;
    ptrdiff_t D = ptrdiff_t(int32_t(Bits << 8) >> 8); // sign-extended
    return D ? llvm::SMLoc::getFromPointer(Val.Loc.getPointer() - D) : Val.Loc;
  }
  /// Records that the key is at \p KeyLoc (Val.Loc set first).  False, and
  /// the key taken to be at the value, when the two are more than
  /// MaxKeyDistance bytes apart.
  bool setKeyLoc(llvm::SMLoc KeyLoc) {
    ptrdiff_t D = Val.Loc.getPointer() - KeyLoc.getPointer();
    bool Fits = D >= -MaxKeyDistance && D <= MaxKeyDistance;
    uint32_t Bits = Fits ? uint32_t(int32_t(D)) : 0;
    Val.Spare[0] = uint8_t(Bits);
    Val.Spare[1] = uint8_t(Bits >> 8);
    Val.Spare[2] = uint8_t(Bits >> 16);
    return Fits;
  }
};

/// An op's operands or attributes: a 16-byte header (pointer, size,
/// capacity) over an array of trivially copyable elements.  The array is
/// the module's (Arena) when reserve(Arena &, N) made it -- the passes that
/// build ops reserve their exact counts there: no malloc a list, no block
/// header, no slack -- else the list's own (malloc, freed with it; a list
/// that outgrows an arena array moves to the heap).  Copies are deep (on
/// the heap).
template <typename T> class List {
  static_assert(std::is_trivially_copyable<T>::value, "copied as bytes");

public:
  List() = default;
  List(const List &O) { append(O.begin(), O.end()); }
  List(List &&O) noexcept : Data(O.Data), Size(O.Size), Cap(O.Cap) {
    O.Data = nullptr;
    O.Size = O.Cap = 0;
  }
  List &operator=(const List &O) {
    if (this != &O) {
      Size = 0;
      append(O.begin(), O.end());
    }
    return *this;
  }
  List &operator=(List &&O) noexcept {
    if (this != &O) {
      release();
      Data = O.Data;
      Size = O.Size;
      Cap = O.Cap;
      O.Data = nullptr;
      O.Size = O.Cap = 0;
    }
    return *this;
  }
  ~List() { release(); }

  using iterator = T *;
  using const_iterator = const T *;
  iterator begin() { return Data; }
  iterator end() { return Data + Size; }
  const_iterator begin() const { return Data; }
  const_iterator end() const { return Data + Size; }
  size_t size() const { return Size; }
  bool empty() const { return Size == 0; }
  size_t capacity() const { return Cap & ~HeapBit; }
  T *data() { return Data; }
  const T *data() const { return Data; }
  T &operator[](size_t I) { return Data[I]; }
  const T &operator[](size_t I) const { return Data[I]; }
  T &back() { return Data[Size - 1]; }
  const T &back() const { return Data[Size - 1]; }
  operator llvm::ArrayRef<T>() const { return {Data, Size}; }

  /// Room for \p N elements on the heap.
  void reserve(size_t N) {
    if (N > capacity())
      regrow(nullptr, N);
  }
  /// Room for \p N elements in \p A (the module's arena), when the list
  /// has none yet.
  void reserve(Arena &A, size_t N) {
    if (N > capacity())
      regrow(&A, N);
  }
  /// Takes \p Array, room for \p Capacity elements that the caller
  /// allocated in the module's arena and whose first \p N it constructed,
  /// as the array of this list, which has none yet (an op built with its
  /// final counts: its operand and attribute arrays in one arena block, its
  /// attributes written in place).
  void adoptArenaArray(T *Array, size_t N, size_t Capacity) {
    assert(!Data && !Cap && "the list has an array");
    assert(N <= Capacity && Capacity < HeapBit);
    Data = Array;
    Size = uint32_t(N);
    Cap = uint32_t(Capacity);
  }
  void push_back(const T &V) { emplace_back(V); }
  template <typename... As> T &emplace_back(As &&...Args) {
    if (LLVM_UNLIKELY(Size == capacity())) {
      // Built before the array moves: the arguments may be in it.
      T New(std::forward<As>(Args)...);
      regrow(nullptr, Size < 2 ? 4 : 2 * size_t(Size));
      return *new (Data + Size++) T(New);
    }
    return *new (Data + Size++) T(std::forward<As>(Args)...);
  }
  iterator erase(iterator First, iterator Last) {
    std::copy(Last, end(), First);
    Size -= uint32_t(Last - First);
    return First;
  }

private:
  static constexpr uint32_t HeapBit = 1u << 31;
  void append(const T *First, const T *Last) {
    reserve(Size + size_t(Last - First));
    std::uninitialized_copy(First, Last, Data + Size);
    Size += uint32_t(Last - First);
  }
  void regrow(Arena *A, size_t N) {
    T *New = A ? A->allocate<T>(N)
               : static_cast<T *>(llvm::safe_malloc(N * sizeof(T)));
    if (Size)
      std::memcpy(static_cast<void *>(New), Data, Size * sizeof(T));
    release();
    Data = New;
    Cap = uint32_t(N) | (A ? 0 : HeapBit);
  }
  void release() {
    if (Cap & HeapBit)
      std::free(Data);
  }
  T *Data = nullptr;
  uint32_t Size = 0, Cap = 0; ///< Cap's top bit: the array is the heap's
};

using ValueList = List<Value>;
using AttrList = List<Attr>;

struct Op;

/// An op's region: its ops in one heap block behind an 8-byte pointer (an
/// empty region is a null pointer, no block; most ops have none).  The
/// block holds the size, the capacity and the ops.  The part of
/// std::vector's interface that the passes use; copies are deep.
class OpList {
public:
  using iterator = Op *;
  using const_iterator = const Op *;

  OpList() = default;
  OpList(const OpList &O);
  OpList(OpList &&O) noexcept : R(O.R) { O.R = nullptr; }
  OpList &operator=(const OpList &O);
  OpList &operator=(OpList &&O) noexcept;
  ~OpList();

  size_t size() const { return R ? R->Size : 0; }
  size_t capacity() const { return R ? R->Cap : 0; }
  bool empty() const { return size() == 0; }
  Op *data() { return R ? reinterpret_cast<Op *>(R + 1) : nullptr; }
  const Op *data() const {
    return R ? reinterpret_cast<const Op *>(R + 1) : nullptr;
  }
  // (Defined after Op, which they need complete.)
  iterator begin() { return data(); }
  iterator end();
  const_iterator begin() const { return data(); }
  const_iterator end() const;
  Op &operator[](size_t I);
  const Op &operator[](size_t I) const;
  Op &back();
  const Op &back() const;

  /// Room for \p N ops (the ops move when the block does).
  void reserve(size_t N);
  template <typename... As> Op &emplace_back(As &&...Args);
  void push_back(const Op &O);
  void push_back(Op &&O);
  /// Inserts \p O before \p Pos; returns where it is.
  iterator insert(const_iterator Pos, Op &&O);
  /// Inserts copies of [\p First, \p Last) (not this list's ops) before
  /// \p Pos.
  template <typename It>
  iterator insert(const_iterator Pos, It First, It Last);

private:
  struct Rep {
    uint32_t Size, Cap;
  };
  /// A new block of capacity \p Cap holding this list's ops with \p Gap
  /// unconstructed slots at \p At; the old block is freed.  Returns the
  /// first slot of the gap.
  Op *rebuild(size_t Cap, size_t At, size_t Gap);
  size_t grownCapacity(size_t Need) const {
    return std::max<size_t>(Need, capacity() < 2 ? 4 : 2 * capacity());
  }
  Rep *R = nullptr;
};

/// One op, 72 bytes.  Its strings (Result, Name, the type, and those of its
/// values and attributes) are Idents or StringRefs that outlive the module:
/// literals (the names and keys the passes spell) or text saved in the
/// module's Arena.  Copying an op copies its operand, attribute and region
/// lists and shares the strings: a copy is valid while the module that owns
/// the strings lives.
struct Op {
  Ident Result; ///< defined value name without '%', or empty
  Ident Name;   ///< e.g. "tp.matmul"
  ValueList Operands;
  AttrList Attrs;
  OpList Body;
  llvm::SMLoc Loc;

  Op() = default;
  /// An op named \p Name (which outlives the module: a literal).
  Op(llvm::StringRef Name, llvm::SMLoc Loc) : Name(Name), Loc(Loc) {}

  /// The type: the tokens after ':' joined by single spaces ("" for none).
  llvm::StringRef getType() const {
    const OpType *T = TypeAndRegion.getPointer();
    return T ? T->Text : llvm::StringRef();
  }
  /// Where the type starts (invalid for none).
  llvm::SMLoc getTypeLoc() const {
    const OpType *T = TypeAndRegion.getPointer();
    return T ? T->Loc : llvm::SMLoc();
  }
  /// Gives the op type \p Text (which outlives the module) at \p L; the
  /// record is \p A's.
  void setType(Arena &A, llvm::StringRef Text, llvm::SMLoc L) {
    OpType *T = A.allocate<OpType>(1);
    new (T) OpType{Text, L};
    TypeAndRegion.setPointer(T);
  }
  /// Whether the op has a region (`{ ... }`, perhaps empty).
  bool hasRegion() const { return TypeAndRegion.getInt(); }
  void setHasRegion(bool R = true) { TypeAndRegion.setInt(R); }

  const Attr *getAttr(llvm::StringRef Key) const;
  Attr *getAttr(llvm::StringRef Key);
  /// The integer attribute \p Key, if present and an integer.
  llvm::Optional<int64_t> getInt(llvm::StringRef Key) const;
  /// The word attribute \p Key, or "" when absent or not a word.
  llvm::StringRef getWord(llvm::StringRef Key) const;
  /// Sets (or appends) an attribute.  Every key, word and name given to the
  /// setters below outlives the module (a literal, or saved in its Arena).
  Op &set(llvm::StringRef Key, Value V);
  /// set(Key, Value::makeInt(V, Loc)), built in place.
  Op &setInt(llvm::StringRef Key, int64_t V);
  /// set(Key, Value::makeWord(W, Loc)), built in place.
  Op &setWord(llvm::StringRef Key, llvm::StringRef W);
  /// Appends attribute \p Key, which the op must not have yet (an op being
  /// built, whose keys the caller knows): no search, built in place.  Use
  /// set() when the key may be present.
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
  /// Appends operand `%Name` at \p L, built in place.
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

private:
  /// A type and its location, in the module's Arena: most ops have none,
  /// so an op holds one pointer, not 24 bytes.
  struct OpType {
    llvm::StringRef Text;
    llvm::SMLoc Loc;
  };
  /// The type (null for none) and, in its spare bit, hasRegion().
  llvm::PointerIntPair<const OpType *, 1, bool> TypeAndRegion;

  /// The attribute \p Key, appended (not yet present) with an empty value
  /// and this op's location; the caller fills its value.  In place: no
  /// temporary Attr or Value is built and moved.  (Inline: the passes'
  /// ops are built an attribute at a time, into exact reserves.)
  Attr &appendAttr(llvm::StringRef Key) {
    if (LLVM_UNLIKELY(Attrs.size() == Attrs.capacity()))
      growAttrs();
    return Attrs.emplace_back(Key, Loc);
  }
  void growAttrs();
};

inline OpList::iterator OpList::end() { return data() + size(); }
inline OpList::const_iterator OpList::end() const { return data() + size(); }
inline Op &OpList::operator[](size_t I) { return data()[I]; }
inline const Op &OpList::operator[](size_t I) const { return data()[I]; }
inline Op &OpList::back() { return data()[size() - 1]; }
inline const Op &OpList::back() const { return data()[size() - 1]; }

inline OpList::OpList(const OpList &O) { insert(begin(), O.begin(), O.end()); }

inline OpList &OpList::operator=(const OpList &O) {
  if (this != &O)
    *this = OpList(O);
  return *this;
}

inline OpList &OpList::operator=(OpList &&O) noexcept {
  if (this != &O) {
    this->~OpList();
    R = O.R;
    O.R = nullptr;
  }
  return *this;
}

inline OpList::~OpList() {
  if (!R)
    return;
  for (Op &O : *this)
    O.~Op();
  std::free(R);
}

inline Op *OpList::rebuild(size_t Cap, size_t At, size_t Gap) {
  static_assert(sizeof(Rep) % alignof(Op) == 0, "the ops follow the header");
  assert(At <= size() && size() + Gap <= Cap && Cap <= UINT32_MAX);
  auto *New = static_cast<Rep *>(llvm::safe_malloc(sizeof(Rep) + Cap * sizeof(Op)));
  Op *To = reinterpret_cast<Op *>(New + 1);
  size_t N = size();
  Op *From = data();
  for (size_t I = 0; I < N; ++I) {
    new (To + (I < At ? I : I + Gap)) Op(std::move(From[I]));
    From[I].~Op();
  }
  std::free(R);
  R = New;
  R->Size = uint32_t(N + Gap);
  R->Cap = uint32_t(Cap);
  return To + At;
}

inline void OpList::reserve(size_t N) {
  if (N > capacity())
    rebuild(N, size(), 0);
}

template <typename... As> Op &OpList::emplace_back(As &&...Args) {
  if (LLVM_UNLIKELY(size() == capacity())) {
    // Built before the block moves: the arguments may be in it.
    Op New(std::forward<As>(Args)...);
    return *new (rebuild(grownCapacity(size() + 1), size(), 1))
        Op(std::move(New));
  }
  return *new (data() + R->Size++) Op(std::forward<As>(Args)...);
}

inline void OpList::push_back(const Op &O) { emplace_back(O); }
inline void OpList::push_back(Op &&O) { emplace_back(std::move(O)); }

inline OpList::iterator OpList::insert(const_iterator Pos, Op &&O) {
  size_t At = size_t(Pos - begin());
  Op New(std::move(O));
  size_t Cap = size() < capacity() ? capacity() : grownCapacity(size() + 1);
  return new (rebuild(Cap, At, 1)) Op(std::move(New));
}

template <typename It>
OpList::iterator OpList::insert(const_iterator Pos, It First, It Last) {
  size_t At = size_t(Pos - begin());
  size_t N = size_t(std::distance(First, Last));
  if (N == 0)
    return begin() + At;
  Op *Gap = rebuild(std::max(capacity(), size() + N), At, N);
  for (size_t I = 0; First != Last; ++First, ++I)
    new (Gap + I) Op(*First);
  return Gap;
}

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
