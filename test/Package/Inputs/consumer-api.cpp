// A C++ program against the installed C++ API (tp/Driver/Compile.h,
// llvm::Expected errors) and libtp.a: compiles the GEMM of argv[2] (MxNxK)
// and writes its cubin to argv[1].
#include <tp/Driver/Compile.h>

#include <cstdio>

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  tp::GemmDesc D;
  if (std::sscanf(argv[2], "%lldx%lldx%lld", (long long *)&D.M,
                  (long long *)&D.N, (long long *)&D.K) != 3)
    return 2;
  llvm::Expected<tp::Kernel> K = tp::compileGemm(D);
  if (!K) {
    std::fputs(tp::renderErrors(K.takeError()).c_str(), stderr);
    return 1;
  }
  FILE *Out = std::fopen(argv[1], "wb");
  if (!Out || std::fwrite(K->Cubin.data(), 1, K->Cubin.size(), Out) !=
                  K->Cubin.size())
    return 1;
  std::fclose(Out);
  std::printf("cxx-api-consumer: %llu instructions, %u registers\n",
              (unsigned long long)K->Stats.Instructions, K->Stats.Registers);
  return 0;
}
