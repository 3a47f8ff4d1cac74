// SPDX-License-Identifier: Apache-2.0
// Test harness for aes_engine: memory-backed stream source and sink with random throttling.

`default_nettype none

// cocotb writes up to Depth input blocks into in_mem, pulses run_i and waits for done_o; the
// harness then offers the blocks with random gaps (valid held until taken) and takes results
// with random stalls, so no Python runs per cycle. Each accepted block and each result is
// time-stamped; the harness keeps the smallest and largest accept-to-result latency (the engine
// keeps block order) and the cycles of the last key write and of key_ready high after it.
// With run_i low the stream ports are driven directly from the man_* inputs. A lone S-box
// (aes_sbox_sel, the implementation SBoxImpl selects) sits beside the engine for the exhaustive
// S-box test.
module tb_aes_engine #(
  parameter int unsigned RoundsPerCycle = 1,
  parameter bit          Pipelined      = 1'b0,
  parameter bit          DecEnable      = 1'b1,
  parameter int unsigned KeyLenMax      = 256,
  parameter int unsigned Datapath       = 128,
  parameter int unsigned SBoxImpl       = 0,
  parameter int unsigned GhashBits      = 0,
  parameter int unsigned Modes          = 7,
  parameter int unsigned CtrBits        = 128,
  parameter int unsigned Masking        = 0,
  parameter bit          SplitRound     = 1'b0,
  parameter int unsigned Depth          = 16384
) (
  input  logic         clk_i,
  input  logic         rst_ni,

  input  logic [1:0]   mode_i,
  input  logic         dir_i,
  input  logic [1:0]   key_len_i,
  input  logic [1:0]   ctr_width_i,
  input  logic [255:0] key_i,
  input  logic         key_we_i,
  output logic         key_ready_o,
  input  logic [127:0] iv_i,
  input  logic         iv_we_i,
  output logic [127:0] iv_o,
  input  logic         clear_i,
  output logic         busy_o,
  output logic         err_o,

  input  logic [1:0]   gcm_phase_i,
  input  logic [3:0]   gcm_bytes_i,
  input  logic         gcm_start_i,
  input  logic         gcm_final_i,
  input  logic [3:0]   gcm_tag_len_i,
  input  logic [127:0] gcm_tag_i,
  output logic [127:0] gcm_tag_o,
  output logic         gcm_tag_valid_o,
  output logic         gcm_tag_mismatch_o,

  input  logic         man_in_valid_i,
  input  logic [127:0] man_in_data_i,
  input  logic         man_out_ready_i,
  output logic         in_ready_o,
  output logic         out_valid_o,
  output logic [127:0] out_data_o,

  input  logic         run_i,
  input  logic [15:0]  n_blocks_i,
  input  logic [15:0]  n_out_i,      // results the run waits for (GCM AAD and IV blocks give none)
  input  logic [7:0]   in_gap_i,     // a new block is withheld with probability in_gap_i / 256
  input  logic [7:0]   out_stall_i,  // out_ready is low with probability out_stall_i / 256
  input  logic [31:0]  seed_i,
  output logic         done_o,
  output logic [31:0]  cycle_o,
  output logic [31:0]  lat_min_o,
  output logic [31:0]  lat_max_o,
  output logic [31:0]  first_in_o,   // cycle of the first accepted block of the run
  output logic [31:0]  last_out_o,   // cycle of the last result of the run
  output logic [31:0]  key_we_cycle_o,
  output logic [31:0]  key_ready_cycle_o,

  // A standalone S-box for the exhaustive S-box test.
  input  logic [7:0]   sbox_data_i,
  input  logic         sbox_inv_i,
  output logic [7:0]   sbox_data_o
);
  localparam int unsigned AW = $clog2(Depth);

  logic [127:0] in_mem  [Depth] /* verilator public_flat_rw */;
  logic [127:0] out_mem [Depth] /* verilator public_flat_rw */;
  logic [31:0]  t_in    [Depth];

  logic         running_q, done_q, allow_q, ready_q, kwait_q;
  logic [15:0]  in_idx_q, out_idx_q;
  logic [31:0]  cycle_q, rnd_q, rnd_next, lat_min_q, lat_max_q, first_in_q, last_out_q;
  logic [31:0]  kwe_cyc_q, krdy_cyc_q, lat;
  logic         in_valid, in_fire, out_ready, out_fire, in_pending;

  // xorshift32, one step per cycle.
  always_comb begin
    rnd_next = rnd_q ^ (rnd_q << 13);
    rnd_next = rnd_next ^ (rnd_next >> 17);
    rnd_next = rnd_next ^ (rnd_next << 5);
  end

  assign in_pending = running_q & (in_idx_q < n_blocks_i);
  assign in_valid   = running_q ? (in_pending & allow_q) : man_in_valid_i;
  assign out_ready  = running_q ? ready_q : man_out_ready_i;
  assign in_fire    = in_valid & in_ready_o;
  assign out_fire   = out_valid_o & out_ready;
  assign lat        = cycle_q - t_in[out_idx_q[AW-1:0]];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q  <= 1'b0;
      done_q     <= 1'b0;
      allow_q    <= 1'b0;
      ready_q    <= 1'b0;
      kwait_q    <= 1'b0;
      in_idx_q   <= '0;
      out_idx_q  <= '0;
      cycle_q    <= '0;
      rnd_q      <= 32'h1;
      lat_min_q  <= '1;
      lat_max_q  <= '0;
      first_in_q <= '0;
      last_out_q <= '0;
      kwe_cyc_q  <= '0;
      krdy_cyc_q <= '0;
    end else begin
      cycle_q  <= cycle_q + 32'd1;
      rnd_q    <= rnd_next;
      // key_ready_cycle_o: first cycle after the last key write with key_ready_o high.
      if (key_we_i) begin
        kwe_cyc_q <= cycle_q;
        kwait_q   <= 1'b1;
      end else if (kwait_q && key_ready_o) begin
        krdy_cyc_q <= cycle_q;
        kwait_q    <= 1'b0;
      end
      if (run_i) begin
        running_q <= n_blocks_i != '0;
        done_q    <= n_blocks_i == '0;
        in_idx_q  <= '0;
        out_idx_q <= '0;
        rnd_q     <= (seed_i == '0) ? 32'h1 : seed_i;
        allow_q   <= 1'b0;
        ready_q   <= 1'b0;
        lat_min_q <= '1;
        lat_max_q <= '0;
      end else if (running_q) begin
        // A block on offer stays on offer until taken.
        allow_q <= (in_valid && !in_ready_o) || (rnd_next[7:0] >= in_gap_i);
        ready_q <= rnd_next[15:8] >= out_stall_i;
        if (in_fire) begin
          in_idx_q <= in_idx_q + 16'd1;
          if (in_idx_q == '0) begin
            first_in_q <= cycle_q;
          end
        end
        if (out_fire) begin
          out_idx_q  <= out_idx_q + 16'd1;
          last_out_q <= cycle_q;
          lat_min_q  <= (lat < lat_min_q) ? lat : lat_min_q;
          lat_max_q  <= (lat > lat_max_q) ? lat : lat_max_q;
        end
        // Done with the last expected result, or with the last block when none is expected.
        if ((in_idx_q + 16'(in_fire) == n_blocks_i) &&
            (out_idx_q + 16'(out_fire) == n_out_i) && (in_fire || out_fire)) begin
          running_q <= 1'b0;
          done_q    <= 1'b1;
        end
      end
    end
  end

  // The sample memories have no reset.
  always_ff @(posedge clk_i) begin
    if (in_fire) begin
      t_in[in_idx_q[AW-1:0]] <= cycle_q;
    end
    if (out_fire && running_q) begin
      out_mem[out_idx_q[AW-1:0]] <= out_data_o;
    end
  end

  assign done_o            = done_q;
  assign cycle_o           = cycle_q;
  assign lat_min_o         = lat_min_q;
  assign lat_max_o         = lat_max_q;
  assign first_in_o        = first_in_q;
  assign last_out_o        = last_out_q;
  assign key_we_cycle_o    = kwe_cyc_q;
  assign key_ready_cycle_o = krdy_cyc_q;

  // AES_GATE_LEVEL: the engine and the S-box are Yosys netlists synthesised for this parameter
  // set (test_aes_gate_level.py), which have no parameters. The ROM S-box (SBoxImpl 2) answers
  // one clock edge after its input.
`ifdef AES_GATE_LEVEL
  aes_sbox_sel u_sbox (
    .data_i(sbox_data_i),
    .inv_i (sbox_inv_i),
    .data_o(sbox_data_o)
  );
`else
  if (SBoxImpl == 2) begin : gen_sbox_rom
    aes_sbox_rom #(
      .DecEnable(1'b1)
    ) u_sbox (
      .clk_i,
      .en_i  (1'b1),
      .data_i(sbox_data_i),
      .inv_i (sbox_inv_i),
      .data_o(sbox_data_o)
    );
  end else begin : gen_sbox_sel
    aes_sbox_sel #(
      .Impl     (SBoxImpl),
      .DecEnable(1'b1)
    ) u_sbox (
      .data_i(sbox_data_i),
      .inv_i (sbox_inv_i),
      .data_o(sbox_data_o)
    );
  end
`endif

`ifdef AES_GATE_LEVEL
  aes_engine u_dut (
`else
  aes_engine #(
    .RoundsPerCycle(RoundsPerCycle),
    .Pipelined     (Pipelined),
    .DecEnable     (DecEnable),
    .KeyLenMax     (KeyLenMax),
    .Datapath      (Datapath),
    .SBoxImpl      (SBoxImpl),
    .GhashBits     (GhashBits),
    .Modes         (Modes),
    .CtrBits       (CtrBits),
    .Masking       (Masking),
    .SplitRound    (SplitRound)
  ) u_dut (
`endif
    .clk_i,
    .rst_ni,
    .mode_i,
    .dir_i,
    .key_len_i,
    .ctr_width_i,
    .key_i,
    .key_we_i,
    .key_ready_o,
    .iv_i,
    .iv_we_i,
    .iv_o,
    .clear_i,
    .in_valid_i (in_valid),
    .in_ready_o,
    .in_data_i  (running_q ? in_mem[in_idx_q[AW-1:0]] : man_in_data_i),
    .out_valid_o,
    .out_ready_i(out_ready),
    .out_data_o,
    .gcm_phase_i,
    .gcm_bytes_i,
    .gcm_start_i,
    .gcm_final_i,
    .gcm_tag_len_i,
    .gcm_tag_i,
    .gcm_tag_o,
    .gcm_tag_valid_o,
    .gcm_tag_mismatch_o,
    .prng_seed_i   (128'h0),  // the masked variants run on the PrngSeed parameter's sequence
    .prng_seed_we_i(1'b0),
    .busy_o,
    .err_o
  );

endmodule

`default_nettype wire
