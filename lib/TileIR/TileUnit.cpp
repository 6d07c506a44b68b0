//===- TileUnit.cpp - The tile IR level for the pass manager --------------===//

#include "tp/TileIR/TileUnit.h"

using namespace llvm;

namespace tp {

IRLevel createTileIRLevel() {
  IRLevel L;
  L.Name = "tile";
  L.Description = "tile IR (tp.kernel / tp.matmul)";
  L.Recognizes = [](StringRef Text) {
    // The first token that is not a comment.
    while (true) {
      Text = Text.ltrim();
      if (Text.startswith("//")) {
        Text = Text.drop_until([](char C) { return C == '\n'; });
        continue;
      }
      return Text.startswith("tp.kernel");
    }
  };
  L.Parse = [](SourceMgr &SM,
               unsigned BufferID) -> Expected<std::unique_ptr<IRUnit>> {
    auto M = tile::parseModule(SM, BufferID);
    if (!M)
      return M.takeError();
    return std::make_unique<tile::TileUnit>(std::move(*M));
  };
  L.Print = [](const IRUnit &U, raw_ostream &OS) {
    tile::printModule(static_cast<const tile::TileUnit &>(U).M, OS);
  };
  L.Verify = [](const IRUnit &U, const SourceMgr &SM) {
    return tile::verifyModule(static_cast<const tile::TileUnit &>(U).M, SM);
  };
  return L;
}

} // namespace tp
