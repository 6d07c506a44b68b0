//===- SelectNames.h - tp-select's table of names -------------*- C++ -*-===//
///
/// \file
/// Open-addressing hash tables from names to dense ids, for the
/// selector's value ids (every name the tile IR defines or reads) and its
/// virtual register names (NameTable), and from the address and length of
/// a spelling of the tile IR to the id of the name it spells
/// (AddressTable).  Guarantees: find() returns the id insert() gave the
/// same characters (names are compared byte by byte; the hash only
/// picks the bucket), ~0u for a name never inserted.  The table does not
/// own the characters: a key must outlive it (the tile IR's strings, or the
/// caller's saved copies).
///
/// Why not llvm::DenseMap<StringRef> or StringMap: tp-select looks up a
/// few thousand short names a kernel (`a.goff0`, `e.sfirst12`), and their
/// general-purpose hashes (hash_combine_range, djb) cost more than the
/// rest of a lookup; this hash reads the name in at most a few overlapping
/// words.
///
//===----------------------------------------------------------------------===//
#ifndef TP_LIB_CODEGEN_SELECTNAMES_H
#define TP_LIB_CODEGEN_SELECTNAMES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace tp {
namespace isel {

class NameTable {
public:
  static constexpr unsigned None = ~0u;

  /// Room for \p N names without growing.
  void reserve(size_t N) {
    Keys.reserve(N);
    if (N * 2 > Buckets.size())
      rehash(size_t(llvm::PowerOf2Ceil(N * 2 < 16 ? 16 : N * 2)));
  }

  /// The id of \p Name, or None.
  unsigned find(llvm::StringRef Name) const {
    if (Buckets.empty())
      return None;
    uint32_t H = hash(Name);
    for (size_t I = H & Mask;; I = (I + 1) & Mask) {
      unsigned Id = Buckets[I];
      if (Id == None)
        return None;
      if (Keys[Id].matches(H, Name))
        return Id;
    }
  }

  /// The id of \p Name; when it has none, \p NewId becomes its id (the
  /// second member true).  Ids are dense: a new name's \p NewId must be
  /// size() (the count of names before it).
  LLVM_ATTRIBUTE_ALWAYS_INLINE std::pair<unsigned, bool>
  insert(llvm::StringRef Name, unsigned NewId) {
    if (LLVM_UNLIKELY(Keys.size() >= GrowAt))
      rehash(Buckets.empty() ? 16 : Buckets.size() * 2);
    uint32_t H = hash(Name);
    for (size_t I = H & Mask;; I = (I + 1) & Mask) {
      unsigned &Id = Buckets[I];
      if (Id == None) {
        assert(NewId == Keys.size() && "ids are dense");
        Id = NewId;
        Keys.push_back(
            Key{Name.data() ? Name.data() : "", uint32_t(Name.size()), H});
        return {NewId, true};
      }
      if (Keys[Id].matches(H, Name))
        return {Id, false};
    }
  }

  size_t size() const { return Keys.size(); }

private:
  /// A name by its id: its characters (not owned) and its hash.
  struct Key {
    const char *Data;
    uint32_t Size;
    uint32_t Hash;
    bool matches(uint32_t H, llvm::StringRef Name) const {
      return Hash == H && Size == Name.size() && equal(Data, Name.data(), Size);
    }
  };

  /// Whether the \p N bytes at \p A and \p B are equal: names up to 16
  /// bytes as two overlapping words (as hash() reads them), longer ones by
  /// memcmp.
  static bool equal(const char *A, const char *B, size_t N) {
    if (N >= 8) {
      if (N > 16)
        return std::memcmp(A, B, N) == 0;
      return load(A, 8) == load(B, 8) && load(A + N - 8, 8) == load(B + N - 8, 8);
    }
    if (N >= 4)
      return load(A, 4) == load(B, 4) && load(A + N - 4, 4) == load(B + N - 4, 4);
    for (size_t I = 0; I < N; ++I)
      if (A[I] != B[I])
        return false;
    return true;
  }

  /// Reads \p N <= 8 bytes at \p P as a word (host byte order).
  static uint64_t load(const char *P, size_t N) {
    uint64_t W = 0;
    std::memcpy(&W, P, N);
    return W;
  }
  /// A multiplicative hash of \p S, reading it in 8-byte words, the last
  /// one overlapping the one before; 4 to 7 bytes as two overlapping
  /// 4-byte words; 1 to 3 bytes their first, middle and last.  Murmur3's
  /// finalizer spreads the high bits of the product into the low ones,
  /// which pick the bucket (the low 32 bits are kept).
  static uint32_t hash(llvm::StringRef S) {
    const char *P = S.data();
    size_t N = S.size();
    uint64_t H = 0x9e3779b97f4a7c15ull ^ N;
    auto Mix = [&H](uint64_t W) { H = (H ^ W) * 0xff51afd7ed558ccdull; };
    if (N >= 8) {
      for (size_t I = 0; I + 8 < N; I += 8)
        Mix(load(P + I, 8));
      Mix(load(P + N - 8, 8));
    } else if (N >= 4) {
      Mix(load(P, 4) | load(P + N - 4, 4) << 32);
    } else if (N > 0) {
      Mix(uint64_t(uint8_t(P[0])) | uint64_t(uint8_t(P[N / 2])) << 8 |
          uint64_t(uint8_t(P[N - 1])) << 16);
    }
    H ^= H >> 33;
    H *= 0xc4ceb9fe1a85ec53ull;
    return uint32_t(H ^ (H >> 33));
  }

  void rehash(size_t NewSize) {
    Buckets.assign(NewSize, None);
    Mask = NewSize - 1;
    GrowAt = NewSize / 2;
    for (unsigned Id = 0; Id < Keys.size(); ++Id)
      for (size_t I = Keys[Id].Hash & Mask;; I = (I + 1) & Mask)
        if (Buckets[I] == None) {
          Buckets[I] = Id;
          break;
        }
  }

  /// Each bucket holds an id (None: empty); the names are in Keys by id,
  /// 16 bytes a name and 4 a bucket (was 24 a bucket, the names in them).
  std::vector<unsigned> Buckets;
  std::vector<Key> Keys;
  size_t Mask = 0;
  size_t GrowAt = 0; ///< the count at which insert() grows (half full)
};

/// An open-addressing hash table from (address, size) keys to ids: the
/// id the selector resolved for a name of the tile IR, by the address and
/// length of the characters that spell it, so that a spelling resolved
/// once by name is found again without hashing its characters (the tile
/// IR's references share their definition's characters, so nearly every
/// name has one spelling).  Keys are the tile IR's strings, which outlive
/// the table and do not change.
class AddressTable {
public:
  static constexpr unsigned None = ~0u;

  /// Room for \p N keys without growing.
  void reserve(size_t N) {
    size_t Need = N + N / 3 + 1; // at most 3/4 full
    if (Need > Buckets.size())
      rehash(size_t(llvm::PowerOf2Ceil(Need < 16 ? 16 : Need)));
  }

  /// Records \p Id for (\p Key, \p Size) (which has none yet, or the
  /// same).
  void insert(const void *Key, unsigned Id, uint32_t Size = 0) {
    Entry &E = bucketFor(Key, Size);
    if (!E.Key) {
      E.Key = Key;
      E.Size = Size;
      ++Count;
    }
    E.Id = Id;
  }

  /// The id recorded for (\p Key, \p Size); when it has none, \p Id
  /// becomes its id (one probe where find() then insert() take two).
  unsigned insertIfAbsent(const void *Key, unsigned Id, uint32_t Size = 0) {
    Entry &E = bucketFor(Key, Size);
    if (!E.Key) {
      E = Entry{Key, Size, Id};
      ++Count;
    }
    return E.Id;
  }

  /// The id recorded for (\p Key, \p Size), or None.
  unsigned find(const void *Key, uint32_t Size = 0) const {
    if (Buckets.empty())
      return None;
    for (size_t I = index(Key);; I = (I + 1) & Mask) {
      const Entry &E = Buckets[I];
      if (E.Key == Key && E.Size == Size)
        return E.Id;
      if (!E.Key)
        return None;
    }
  }

  size_t size() const { return Count; }
  size_t buckets() const { return Buckets.size(); }
  /// How often insert() grew the table (reserve() sized it too small).
  unsigned timesGrown() const { return Grown; }

private:
  struct Entry {
    const void *Key = nullptr; ///< null: an empty bucket
    uint32_t Size = 0;
    unsigned Id = None;
  };
  /// The entry of (\p Key, \p Size), or the empty bucket where it goes;
  /// the table grows first where one more key would fill it past 3/4.
  LLVM_ATTRIBUTE_ALWAYS_INLINE Entry &bucketFor(const void *Key,
                                                uint32_t Size) {
    if (LLVM_UNLIKELY(Count >= GrowAt)) {
      rehash(Buckets.empty() ? 16 : Buckets.size() * 2);
      ++Grown;
    }
    for (size_t I = index(Key);; I = (I + 1) & Mask) {
      Entry &E = Buckets[I];
      if (!E.Key || (E.Key == Key && E.Size == Size))
        return E;
    }
  }
  /// Fibonacci hashing: the product's high bits pick the bucket.
  size_t index(const void *Key) const {
    return size_t((uint64_t(uintptr_t(Key)) * 0x9e3779b97f4a7c15ull) >>
                  Shift) &
           Mask;
  }
  void rehash(size_t NewSize) {
    std::vector<Entry> Old(NewSize);
    Old.swap(Buckets);
    Mask = NewSize - 1;
    Shift = 64 - llvm::Log2_64(NewSize);
    GrowAt = NewSize / 4 * 3;
    for (const Entry &E : Old)
      if (E.Key)
        for (size_t I = index(E.Key);; I = (I + 1) & Mask)
          if (!Buckets[I].Key) {
            Buckets[I] = E;
            break;
          }
  }

  std::vector<Entry> Buckets;
  size_t Mask = 0;
  unsigned Shift = 63;
  size_t Count = 0;
  size_t GrowAt = 0;
  unsigned Grown = 0;
};

} // namespace isel
} // namespace tp

#endif // TP_LIB_CODEGEN_SELECTNAMES_H
