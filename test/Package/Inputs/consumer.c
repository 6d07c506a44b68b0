/* A C99 program against the installed C API: compiles the GEMM of
 * argv[2] (MxNxK, A rows, B columns, the tile tp-tile chooses, sm_86), writes
 * its cubin to argv[1] and its listing to stdout; then shows that a bad
 * description is an error with the diagnostic. */
#include <tp/tp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: c-consumer OUT.cubin MxNxK\n");
    return 2;
  }
  tp_gemm_desc desc;
  tp_gemm_desc_init(&desc);
  long long m, n, k;
  if (sscanf(argv[2], "%lldx%lldx%lld", &m, &n, &k) != 3)
    return 2;
  desc.m = m;
  desc.n = n;
  desc.k = k;
  tp_kernel *kernel = NULL;
  char *error = NULL;
  if (tp_gemm_compile(&desc, &kernel, &error) != 0) {
    fprintf(stderr, "%s", error);
    tp_string_free(error);
    return 1;
  }
  size_t size = 0;
  const uint8_t *cubin = tp_kernel_cubin(kernel, &size);
  FILE *out = fopen(argv[1], "wb");
  if (!out || fwrite(cubin, 1, size, out) != size || fclose(out) != 0)
    return 1;
  fputs(tp_kernel_sass(kernel), stdout);
  tp_kernel_free(kernel);

  desc.a_layout = "diagonal";
  if (tp_gemm_compile(&desc, &kernel, &error) == 0)
    return 1;
  fprintf(stderr, "c-consumer: expected error: %s", error);
  tp_string_free(error);
  printf("tp %s: ok\n", tp_version());
  return 0;
}
