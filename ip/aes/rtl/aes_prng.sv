// SPDX-License-Identifier: Apache-2.0
// Masking randomness for aes_masked_core: parallel xorshift128 lanes, 32 fresh bits per lane and
// cycle. A stand-in, not a CSPRNG: a product reseeds it from an entropy source.

`default_nettype none

// Each lane is Marsaglia's xorshift128 (period 2^128 - 1 from any non-zero state), stepped every
// cycle; rnd_o[32*l +: 32] is lane l's newest word. Lane l starts from a non-linear mix
// (splitmix-style) of the seed and l, so the lanes' sequences are not XOR-shifts of one another.
// Reseed: each seed_we_i pulse shifts seed_i into lane 0 and every lane's state into the next,
// so Lanes writes of independent entropy reseed them all (an all-zero seed_i is taken as 1).
// Reset goes back to the Seed parameter, so after it the sequence is known: reseed before use
// when that matters. The engine's clear_i leaves the PRNG running: it holds no key or data, and
// a clear must not make the masks that follow predictable. Off = 1 (leakage assessment only:
// shows the test can fail) gives all-zero output, which unmasks the datapath.
module aes_prng #(
  parameter int unsigned  Lanes = 8,
  parameter logic [127:0] Seed  = 128'h5be0cd19137e2179_1f83d9ab9b05688c,
  parameter bit           Off   = 1'b0
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [127:0]          seed_i,
  input  logic                  seed_we_i,
  output logic [32*Lanes-1:0]   rnd_o
);
  // Lane l's state from a seed: two 64-bit splitmix finalisers; never all zero.
  function automatic logic [63:0] mix64(logic [63:0] v);
    logic [63:0] z;
    z = v + 64'h9e3779b97f4a7c15;
    z = (z ^ (z >> 30)) * 64'hbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 64'h94d049bb133111eb;
    mix64 = z ^ (z >> 31);
  endfunction

  function automatic logic [127:0] lane_seed(logic [127:0] s, int unsigned l);
    logic [127:0] v;
    v = {mix64(s[127:64] ^ 64'(l)), mix64(s[63:0] ^ mix64(64'(l) + 64'h1234_5678))};
    lane_seed = (v == '0) ? 128'h1 : v;
  endfunction

  logic [127:0] lane_state [Lanes];
  logic [127:0] seed_in;

  assign seed_in = (seed_i == '0) ? 128'h1 : seed_i;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    logic [31:0]  x_q, y_q, z_q, w_q, t, w_d;
    logic [127:0] reseed;

    if (l == 0) begin : gen_first
      assign reseed = seed_in;
    end else begin : gen_next
      assign reseed = lane_state[l - 1];
    end
    assign lane_state[l] = {x_q, y_q, z_q, w_q};

    assign t   = x_q ^ (x_q << 11);
    assign w_d = w_q ^ (w_q >> 19) ^ t ^ (t >> 8);

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        {x_q, y_q, z_q, w_q} <= lane_seed(Seed, l);
      end else if (seed_we_i) begin
        {x_q, y_q, z_q, w_q} <= reseed;
      end else begin
        {x_q, y_q, z_q, w_q} <= {y_q, z_q, w_q, w_d};
      end
    end

    assign rnd_o[32 * l +: 32] = Off ? 32'h0 : w_q;
  end

endmodule

`default_nettype wire
