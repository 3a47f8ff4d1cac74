/* SPDX-License-Identifier: Apache-2.0 */
/* Smallest self-test: console output, a record, and an exit code chosen by the test. */
#include <stdio.h>

#include "aesoc.h"

int main(void) {
  printf("hello from aesoc\n");
  aesoc_rec_begin("hello");
  aesoc_rec_u64("answer", 42);
  aesoc_rec_str("quote", "say \"hi\"");
  aesoc_rec_end();
  return 7;
}
