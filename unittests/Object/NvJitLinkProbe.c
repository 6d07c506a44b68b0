/*===- NvJitLinkProbe.c - Feed one cubin to libnvJitLink ------------------===*\
 *
 * An independent parser for the Object tests (SASS_FACTS.md 4.1): adds the
 * file as NVJITLINK_INPUT_CUBIN for -arch=sm_86 and completes the link.
 * Prints "add=A complete=C" and exits 0 when both succeed.  Run in a
 * subprocess: libnvJitLink crashes on some malformed headers.  For an
 * ET_EXEC input nvJitLink checks the ELF identification, e_machine and the
 * header/section tables, then ignores the image (it links only ET_REL).
 *
\*===----------------------------------------------------------------------===*/
#include <nvJitLink.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  FILE *F = fopen(argv[1], "rb");
  if (!F)
    return 2;
  fseek(F, 0, SEEK_END);
  long N = ftell(F);
  fseek(F, 0, SEEK_SET);
  char *B = malloc(N ? N : 1);
  if (fread(B, 1, N, F) != (size_t)N)
    return 2;
  fclose(F);
  nvJitLinkHandle H;
  const char *Opts[] = {"-arch=sm_86"};
  if (nvJitLinkCreate(&H, 1, Opts) != NVJITLINK_SUCCESS)
    return 2;
  int Add = nvJitLinkAddData(H, NVJITLINK_INPUT_CUBIN, B, N, argv[1]);
  int Complete = Add ? -1 : (int)nvJitLinkComplete(H);
  printf("add=%d complete=%d\n", Add, Complete);
  return Add || Complete;
}
