// SPDX-License-Identifier: Apache-2.0
// Interrupt line of a register-mapped peripheral: any IRQ_STATUS bit whose IRQ_ENABLE bit is set.
`default_nettype none

// IRQ_STATUS (sticky, set by hardware events, write 1 to clear) and IRQ_ENABLE are fields of the
// peripheral's generated register file; this is the line they drive. Bit i of status_i pairs with
// bit i of enable_i. A level output from register outputs only: no path from the bus reaches it.
module periph_irq #(
  parameter int unsigned Width = 1
) (
  input  wire logic [Width-1:0] status_i,
  input  wire logic [Width-1:0] enable_i,
  output logic                  irq_o
);

  assign irq_o = |(status_i & enable_i);

  if (Width < 1) begin : gen_bad_width
    $error("periph_irq: Width must be at least 1");
  end

endmodule

`default_nettype wire
