//===- Timeline.cpp - The timing model's schedule as an SVG picture -------===//
///
/// \file
/// writeTimelineSVG(): sub-partition 0 over the Timeline's window, one row
/// per warp (each issue a tick coloured by its pipe, each stall shaded by
/// its Nsight reason), the tensor pipe's busy time as the last row, and a
/// legend.  Guarantees: a self-contained SVG 1.1 document, the same bytes
/// for the same Timeline.
///
//===----------------------------------------------------------------------===//
#include "tp/Sim/Timing.h"
#include "llvm/Support/Format.h"

using namespace llvm;
using namespace tp;
using namespace tp::sim;

static const char *pipeColour(Pipe P) {
  static const char *C[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd",
                            "#8c564b", "#ff7f0e", "#000000", "#17becf",
                            "#e377c2", "#7f7f7f"};
  return C[unsigned(P)];
}
static const char *pipeName(Pipe P) {
  static const char *N[] = {"tensor", "fma", "alu", "uniform", "fp64",
                            "mufu", "branch", "shared", "global", "other"};
  return N[unsigned(P)];
}
static const char *stateColour(WarpState S) {
  static const char *C[] = {"#ffffff", "#d9f2d9", "#e6e6e6", "#fff2a8",
                            "#ffd1a3", "#f7c6d9", "#b3ecf2", "#e8d8b8",
                            "#d5c8f0", "#c8d4e6", "#c9c9a3"};
  return C[unsigned(S)];
}

void sim::writeTimelineSVG(raw_ostream &OS, const Timeline &TL,
                           StringRef Title) {
  const unsigned Left = 90, Width = 1200, RowH = 22, Top = 40;
  unsigned Rows = unsigned(TL.Warps.size()) + 1;
  double Len = double(std::max<uint64_t>(1, TL.End - TL.Start));
  auto X = [&](uint64_t C) { return Left + (double(C - TL.Start) / Len) * Width; };
  unsigned LegendY = Top + Rows * RowH + 30;
  unsigned H = LegendY + 60;
  OS << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\""
     << unsigned(Left + Width + 20) << "\" height=\"" << unsigned(H)
     << "\" font-family=\"sans-serif\" font-size=\"11\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
     << "<text x=\"" << Left << "\" y=\"20\" font-size=\"13\">" << Title
     << ": sub-partition 0, cycles " << TL.Start << ".." << TL.End
     << "</text>\n";
  for (unsigned R = 0; R < Rows; ++R) {
    unsigned Y = Top + R * RowH;
    OS << "<text x=\"4\" y=\"" << Y + 15 << "\">"
       << (R + 1 < Rows ? "warp " + std::to_string(TL.Warps[R])
                        : std::string("tensor pipe"))
       << "</text>\n<rect x=\"" << Left << "\" y=\"" << Y << "\" width=\""
       << Width << "\" height=\"" << RowH - 4
       << "\" fill=\"none\" stroke=\"#cccccc\"/>\n";
  }
  for (const Timeline::Span &S : TL.Spans)
    OS << "<rect x=\"" << format("%.2f", X(S.From)) << "\" y=\""
       << Top + S.Row * RowH << "\" width=\""
       << format("%.2f", X(S.To) - X(S.From)) << "\" height=\"" << RowH - 4
       << "\" fill=\"" << stateColour(S.State) << "\"/>\n";
  unsigned TY = Top + (Rows - 1) * RowH;
  for (const auto &B : TL.TensorBusy) {
    uint64_t To = std::min(B.second, TL.End);
    OS << "<rect x=\"" << format("%.2f", X(B.first)) << "\" y=\"" << TY
       << "\" width=\"" << format("%.2f", X(To) - X(B.first))
       << "\" height=\"" << RowH - 4 << "\" fill=\"#d62728\" "
       << "fill-opacity=\"0.6\" stroke=\"white\" stroke-width=\"0.5\"/>\n";
  }
  for (const Timeline::Issue &I : TL.Issues)
    OS << "<rect x=\"" << format("%.2f", X(I.Cycle)) << "\" y=\""
       << Top + I.Row * RowH << "\" width=\""
       << format("%.2f", std::max(1.0, Width / Len)) << "\" height=\""
       << RowH - 4 << "\" fill=\"" << pipeColour(I.P) << "\"/>\n";
  // Legend: pipes, then warp states.
  unsigned LX = Left;
  for (unsigned P = 0; P < NumPipes; ++P, LX += 80)
    OS << "<rect x=\"" << LX << "\" y=\"" << LegendY << "\" width=\"10\" "
       << "height=\"10\" fill=\"" << pipeColour(Pipe(P)) << "\"/><text x=\""
       << LX + 14 << "\" y=\"" << LegendY + 9 << "\">" << pipeName(Pipe(P))
       << "</text>\n";
  LX = Left;
  for (unsigned S = 1; S < unsigned(WarpState::Num); ++S, LX += 120)
    OS << "<rect x=\"" << LX << "\" y=\"" << LegendY + 25
       << "\" width=\"10\" height=\"10\" fill=\""
       << stateColour(WarpState(S)) << "\" stroke=\"#999999\"/><text x=\""
       << LX + 14 << "\" y=\"" << LegendY + 34 << "\">"
       << getWarpStateName(WarpState(S)) << "</text>\n";
  OS << "</svg>\n";
}
