// A C++17 program against the installed package through tp/tp.hpp (the C
// API with RAII and exceptions): compiles an sm_90 kernel, writes its
// cubin to argv[1], checks that disassemble -> assemble gives the same
// bytes and that bad input throws tp::Error.
#include <tp/tp.hpp>

#include <fstream>
#include <iostream>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  tp::GemmOptions O;
  O.m = O.n = 128;
  O.k = 256;
  O.a_layout = "columns";
  O.target = "sm_90";
  tp::Kernel K = tp::compile(O);
  std::vector<uint8_t> Cubin = K.cubin();
  std::ofstream(argv[1], std::ios::binary)
      .write(reinterpret_cast<const char *>(Cubin.data()), Cubin.size());
  std::string Text = tp::disassemble(Cubin, TP_DISASSEMBLE_CUBIN_TEXT);
  if (tp::assemble(Text, "sm_90") != Cubin) {
    std::cerr << "cxx-consumer: round trip changed the bytes\n";
    return 1;
  }
  try {
    O.tile = "huge";
    tp::compile(O);
    return 1;
  } catch (const tp::Error &E) {
    std::cerr << "cxx-consumer: expected error: " << E.what();
  }
  std::cout << "cxx-consumer: ok, " << Cubin.size() << " bytes\n";
  return 0;
}
