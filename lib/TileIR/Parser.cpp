//===- Parser.cpp - Lexer and parser of the tile IR -----------------------===//
///
/// \file
/// A line-oriented recursive-descent parser for the grammar in TileIR.h.
/// The whole buffer is lexed first, so the parser may look two tokens ahead
/// (an operand word is told from an attribute key by the '=' after it).
///
//===----------------------------------------------------------------------===//

#include "tp/Support/Diagnostics.h"
#include "tp/Support/ElementType.h"
#include "tp/TileIR/TileIR.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace tp {
namespace tile {
namespace {

enum class Tok {
  Eof,
  Newline,
  Word,
  Int,
  Ref,
  Symbol,
  String,
  Equal,
  Comma,
  Colon,
  LParen,
  RParen,
  LBrace,
  RBrace,
  LSquare,
  RSquare,
  Less,
  Greater,
  Arrow,
};

struct Token {
  Tok K;
  StringRef Text; ///< the spelling (for Ref/Symbol without the sigil)
  int64_t I = 0;
  SMLoc Loc;
};

bool isWordStart(char C) { return isAlpha(C) || C == '_'; }
bool isWordChar(char C) { return isAlnum(C) || C == '_' || C == '.'; }

class Parser {
public:
  Parser(SourceMgr &SM, unsigned BufferID)
      : SM(SM), Buffer(SM.getMemoryBuffer(BufferID)->getBuffer()) {}

  Expected<Module> run() {
    if (Error E = lex())
      return E;
    Module M;
    Strings = M.Strings.get();
    skipNewlines();
    while (cur().K != Tok::Eof) {
      Kernel K;
      if (Error E = parseKernel(K))
        return E;
      M.Kernels.push_back(std::move(K));
      skipNewlines();
    }
    if (M.Kernels.empty())
      return makeSourceError(SM, SMLoc::getFromPointer(Buffer.end()),
                             "expected 'tp.kernel', found end of file");
    return M;
  }

private:
  SourceMgr &SM;
  StringRef Buffer;
  /// The module's arena: every string the IR keeps is saved in it (the IR
  /// does not point into the source buffer, which may die first).
  Arena *Strings = nullptr;
  StringRef save(StringRef S) { return Strings->save(S); }
  std::vector<Token> Tokens;
  size_t Pos = 0;

  Error err(SMLoc Loc, const Twine &Msg) {
    return makeSourceError(SM, Loc, Msg);
  }

  /// Saves the current token's text as an op name, key or value name into
  /// \p Out.
  void saveName(StringRef &Out) { Out = save(cur().Text); }

  Error lex() {
    const char *P = Buffer.begin(), *E = Buffer.end();
    while (true) {
      while (P < E && (*P == ' ' || *P == '\t' || *P == '\r'))
        ++P;
      Token T;
      T.Loc = SMLoc::getFromPointer(P);
      if (P == E) {
        T.K = Tok::Eof;
        Tokens.push_back(T);
        return Error::success();
      }
      const char *Start = P;
      char C = *P;
      if (C == '/' && P + 1 < E && P[1] == '/') {
        while (P < E && *P != '\n')
          ++P;
        continue;
      }
      if (C == '\n') {
        ++P;
        T.K = Tok::Newline;
        T.Text = StringRef(Start, 1);
        Tokens.push_back(T);
        continue;
      }
      if (C == '%' || C == '@') {
        ++P;
        while (P < E && (isWordChar(*P)))
          ++P;
        if (P == Start + 1)
          return err(T.Loc, Twine("expected a name after '") + Twine(C) + "'");
        T.K = C == '%' ? Tok::Ref : Tok::Symbol;
        T.Text = StringRef(Start + 1, P - Start - 1);
        Tokens.push_back(T);
        continue;
      }
      if (C == '"') {
        ++P;
        while (P < E && *P != '"' && *P != '\n')
          ++P;
        if (P == E || *P != '"')
          return err(T.Loc, "unterminated string");
        T.K = Tok::String;
        T.Text = StringRef(Start + 1, P - Start - 1);
        ++P;
        Tokens.push_back(T);
        continue;
      }
      if (isDigit(C) || (C == '-' && P + 1 < E && isDigit(P[1]))) {
        ++P;
        while (P < E && isDigit(*P))
          ++P;
        if (P < E && isWordChar(*P) && C != '-') {
          // A word that starts with digits, such as 128x64.
          while (P < E && isWordChar(*P))
            ++P;
          T.K = Tok::Word;
          T.Text = StringRef(Start, P - Start);
          Tokens.push_back(T);
          continue;
        }
        T.K = Tok::Int;
        T.Text = StringRef(Start, P - Start);
        if (T.Text.getAsInteger(10, T.I))
          return err(T.Loc, "integer '" + T.Text + "' is out of range");
        Tokens.push_back(T);
        continue;
      }
      if (isWordStart(C)) {
        while (P < E && isWordChar(*P))
          ++P;
        T.K = Tok::Word;
        T.Text = StringRef(Start, P - Start);
        Tokens.push_back(T);
        continue;
      }
      if (C == '-' && P + 1 < E && P[1] == '>') {
        P += 2;
        T.K = Tok::Arrow;
        T.Text = StringRef(Start, 2);
        Tokens.push_back(T);
        continue;
      }
      switch (C) {
      case '=': T.K = Tok::Equal; break;
      case ',': T.K = Tok::Comma; break;
      case ':': T.K = Tok::Colon; break;
      case '(': T.K = Tok::LParen; break;
      case ')': T.K = Tok::RParen; break;
      case '{': T.K = Tok::LBrace; break;
      case '}': T.K = Tok::RBrace; break;
      case '[': T.K = Tok::LSquare; break;
      case ']': T.K = Tok::RSquare; break;
      case '<': T.K = Tok::Less; break;
      case '>': T.K = Tok::Greater; break;
      default:
        return err(T.Loc, Twine("unexpected character '") + Twine(C) + "'");
      }
      ++P;
      T.Text = StringRef(Start, 1);
      Tokens.push_back(T);
    }
  }

  const Token &cur() const { return Tokens[Pos]; }
  const Token &peek(unsigned N = 1) const {
    return Tokens[std::min(Pos + N, Tokens.size() - 1)];
  }
  void next() {
    if (Pos + 1 < Tokens.size())
      ++Pos;
  }
  void skipNewlines() {
    while (cur().K == Tok::Newline)
      next();
  }
  static std::string describe(const Token &T) {
    switch (T.K) {
    case Tok::Eof:
      return "end of file";
    case Tok::Newline:
      return "end of line";
    case Tok::Ref:
      return ("'%" + T.Text + "'").str();
    case Tok::Symbol:
      return ("'@" + T.Text + "'").str();
    case Tok::String:
      return ("'\"" + T.Text + "\"'").str();
    default:
      return ("'" + T.Text + "'").str();
    }
  }
  Error expect(Tok K, StringRef What) {
    if (cur().K != K)
      return err(cur().Loc, "expected " + What + ", found " + describe(cur()));
    next();
    return Error::success();
  }
  Error expectLineEnd() {
    if (cur().K == Tok::Eof)
      return Error::success();
    return expect(Tok::Newline, "end of line");
  }

  /// value ::= integer | word | '%'name | '@'name | string | '[' values ']'
  Error parseValue(Value &V) {
    const Token &T = cur();
    V.Loc = T.Loc;
    switch (T.K) {
    case Tok::Int:
      V.K = Value::Int;
      V.I = T.I;
      break;
    case Tok::Word:
      V.setText(Value::Word, save(T.Text));
      break;
    case Tok::Ref:
      V.setText(Value::Ref, save(T.Text));
      break;
    case Tok::Symbol:
      V.setText(Value::Symbol, save(T.Text));
      break;
    case Tok::String:
      V.setText(Value::String, save(T.Text));
      break;
    case Tok::LSquare: {
      next();
      if (cur().K == Tok::RSquare)
        return err(cur().Loc, "expected a value in the list, found ']'");
      SmallVector<Value, 8> Elems;
      while (true) {
        if (Error Err = parseValue(Elems.emplace_back()))
          return Err;
        if (cur().K == Tok::Comma) {
          next();
          continue;
        }
        SMLoc L = V.Loc;
        V = Value::makeList(*Strings, Elems, L);
        return expect(Tok::RSquare, "',' or ']'");
      }
    }
    default:
      return err(T.Loc, "expected a value, found " + describe(T));
    }
    next();
    return Error::success();
  }

  bool atAttr() const {
    return cur().K == Tok::Word && peek().K == Tok::Equal;
  }

  Error parseAttrs(AttrList &Attrs) {
    while (atAttr()) {
      Attr A;
      saveName(A.Key);
      SMLoc KeyLoc = cur().Loc;
      for (const Attr &Old : Attrs)
        if (Old.Key == A.Key)
          return err(KeyLoc, "attribute '" + A.Key + "' given twice");
      next();
      next();
      if (Error E = parseValue(A.Val))
        return E;
      A.KeyLoc = KeyLoc;
      Attrs.push_back(A);
    }
    return Error::success();
  }

  /// op ::= [ '%'name '=' ] opname operands attrs [ ':' type ] [ region ] NL
  Error parseOp(Op &O) {
    if (cur().K == Tok::Ref && peek().K == Tok::Equal) {
      saveName(O.Result);
      next();
      next();
    }
    if (cur().K != Tok::Word)
      return err(cur().Loc, "expected an operation name, found " +
                                describe(cur()));
    saveName(O.Name);
    O.Loc = cur().Loc;
    next();
    auto AtEnd = [&] {
      Tok K = cur().K;
      return K == Tok::Newline || K == Tok::Eof || K == Tok::LBrace ||
             K == Tok::Colon;
    };
    if (!AtEnd() && !atAttr()) {
      while (true) {
        Value V;
        if (Error E = parseValue(V))
          return E;
        O.Operands.push_back(std::move(V));
        if (cur().K != Tok::Comma)
          break;
        next();
      }
    }
    if (Error E = parseAttrs(O.Attrs))
      return E;
    if (cur().K == Tok::Colon) {
      next();
      std::string Type;
      SMLoc TypeLoc = cur().Loc;
      while (cur().K != Tok::Newline && cur().K != Tok::Eof &&
             cur().K != Tok::LBrace) {
        if (!Type.empty())
          Type += ' ';
        Type += describe(cur()).substr(1, describe(cur()).size() - 2);
        next();
      }
      if (Type.empty())
        return err(cur().Loc, "expected a type after ':'");
      O.setType(save(Type), TypeLoc);
    }
    if (cur().K == Tok::LBrace) {
      next();
      O.setHasRegion();
      if (Error E = expect(Tok::Newline, "end of line after '{'"))
        return E;
      if (Error E = parseRegion(O.Body))
        return E;
    }
    if (!AtEnd() && cur().K != Tok::Newline)
      return err(cur().Loc, "expected an attribute 'key=value' or end of "
                            "line, found " +
                                describe(cur()));
    return expectLineEnd();
  }

  /// region ::= op* '}'   (after '{' NL)
  /// A kernel's body (a std::vector) or an op's (an OpList).
  template <typename OpsT> Error parseRegion(OpsT &Body) {
    while (true) {
      skipNewlines();
      if (cur().K == Tok::RBrace) {
        next();
        return Error::success();
      }
      if (cur().K == Tok::Eof)
        return err(cur().Loc, "expected '}' to close the region, found end of "
                              "file");
      Op O;
      if (Error E = parseOp(O))
        return E;
      Body.push_back(std::move(O));
    }
  }

  /// kernel ::= 'tp.kernel' '@'name '(' params ')' attrs '{' NL op* '}' NL
  Error parseKernel(Kernel &K) {
    if (cur().K != Tok::Word || cur().Text != "tp.kernel")
      return err(cur().Loc, "expected 'tp.kernel', found " + describe(cur()));
    K.Loc = cur().Loc;
    next();
    if (cur().K != Tok::Symbol)
      return err(cur().Loc,
                 "expected the kernel's name '@name', found " + describe(cur()));
    K.Name = save(cur().Text);
    next();
    if (Error E = expect(Tok::LParen, "'('"))
      return E;
    while (cur().K != Tok::RParen) {
      Param P;
      if (cur().K != Tok::Ref)
        return err(cur().Loc,
                   "expected a parameter '%name', found " + describe(cur()));
      P.Name = save(cur().Text);
      P.Loc = cur().Loc;
      next();
      if (Error E = expect(Tok::Colon, "':'"))
        return E;
      // A value: `f32` (alpha, beta) or `i32` (a run-time shape's M, N, K,
      // leading dimensions and batch strides).
      if (cur().K == Tok::Word &&
          (cur().Text == "f32" || cur().Text == "i32")) {
        P.Elem = save(cur().Text);
        P.Scalar = true;
        next();
      } else {
        if (cur().K != Tok::Word || cur().Text != "ptr")
          return err(cur().Loc,
                     "expected a parameter type 'ptr<f16>', 'ptr<bf16>', "
                     "'ptr<f32>', 'f32' or 'i32', found " +
                         describe(cur()));
        next();
        if (Error E = expect(Tok::Less, "'<'"))
          return E;
        if (cur().K != Tok::Word || !parseElementTypeName(cur().Text))
          return err(cur().Loc,
                     "expected an element type 'f16', 'bf16' or 'f32', found " +
                         describe(cur()));
        P.Elem = save(cur().Text);
        next();
        if (Error E = expect(Tok::Greater, "'>'"))
          return E;
      }
      K.Params.push_back(std::move(P));
      if (cur().K == Tok::Comma) {
        next();
        continue;
      }
      if (cur().K != Tok::RParen)
        return err(cur().Loc, "expected ',' or ')', found " + describe(cur()));
    }
    next();
    if (Error E = parseAttrs(K.Attrs))
      return E;
    if (Error E = expect(Tok::LBrace, "an attribute 'key=value' or '{'"))
      return E;
    if (Error E = expect(Tok::Newline, "end of line after '{'"))
      return E;
    if (Error E = parseRegion(K.Body))
      return E;
    return expectLineEnd();
  }
};

} // namespace

Expected<Module> parseModule(SourceMgr &SM, unsigned BufferID) {
  return Parser(SM, BufferID).run();
}

} // namespace tile
} // namespace tp
