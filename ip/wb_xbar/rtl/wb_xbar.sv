// SPDX-License-Identifier: Apache-2.0
// Wishbone B4 classic crossbar: N masters x M slaves, burst-locked arbitration; zero added latency,
// or (RegGrant) grants from registers, parked on the last owner.

`default_nettype none

module wb_xbar #(
  parameter int unsigned NumMasters = 2,
  parameter int unsigned NumSlaves  = 2,
  // Byte-address decode: slave s is selected when (byte_addr & SlaveMask[s]) == SlaveBase[s];
  // the lowest matching s wins; no match => the crossbar itself answers ERR (one cycle later).
  // Slave s's word is bits [s*32 +: 32], the layout of a [NumSlaves-1:0][31:0] array: Yosys
  // (0.70 too) parses packed 2-D ports but no packed 2-D parameter.
  parameter logic [NumSlaves*32-1:0] SlaveBase = '0,
  parameter logic [NumSlaves*32-1:0] SlaveMask = '0,
  // A selected slave that gives neither ACK nor ERR within TimeoutCycles cycles of STB gets the
  // master an ERR and the slave's cycle is dropped (CYC/STB deasserted). 0 disables.
  parameter int unsigned TimeoutCycles = 256,
  // Grants the high-priority class may take in a row on a slave while a low-priority master
  // waits there; the next arbitration then goes to the low class (README, "Arbitration").
  parameter int unsigned PrioBudget = 8,
  // 1: a slave's grant comes from a register that stays with its last owner, so no master's
  // request reaches another master's ACK in the same cycle (the SoC's cross-block paths); a
  // master whose slave is parked on another one waits one cycle more (README, "Registered grant").
  parameter bit RegGrant = 1'b0
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic [NumMasters-1:0]             m_prio_i,  // 1 = high-priority class (runtime)
  input  logic [NumMasters-1:0]             m_cyc_i, m_stb_i, m_we_i,
  input  logic [NumMasters-1:0][29:0]       m_adr_i,   // WORD address (byte address >> 2)
  input  logic [NumMasters-1:0][31:0]       m_dat_i,
  input  logic [NumMasters-1:0][3:0]        m_sel_i,
  input  logic [NumMasters-1:0][2:0]        m_cti_i,
  input  logic [NumMasters-1:0][1:0]        m_bte_i,
  output logic [NumMasters-1:0][31:0]       m_dat_o,
  output logic [NumMasters-1:0]             m_ack_o, m_err_o,
  output logic [NumSlaves-1:0]              s_cyc_o, s_stb_o, s_we_o,
  output logic [NumSlaves-1:0][29:0]        s_adr_o,   // full word address, unchanged
  output logic [NumSlaves-1:0][31:0]        s_dat_o,
  output logic [NumSlaves-1:0][3:0]         s_sel_o,
  output logic [NumSlaves-1:0][2:0]         s_cti_o,
  output logic [NumSlaves-1:0][1:0]         s_bte_o,
  input  logic [NumSlaves-1:0][31:0]        s_dat_i,
  input  logic [NumSlaves-1:0]              s_ack_i, s_err_i
);

  localparam int unsigned NM = NumMasters;
  localparam int unsigned NS = NumSlaves;
  // CTI codes that keep a burst (and therefore the grant) open after a beat.
  localparam logic [2:0] CTI_CONST = 3'b001;
  localparam logic [2:0] CTI_INCR  = 3'b010;

  // ---------------------------------------------------------------------------------------------
  // Address decode: dec[m] is one-hot per master; an all-zero row means unmapped.
  // ---------------------------------------------------------------------------------------------
  logic [NM-1:0][NS-1:0] dec;
  logic [NM-1:0]    dec_hit;
  logic             dec_found;

  always_comb begin
    dec       = '0;
    dec_hit   = '0;
    dec_found = 1'b0;
    for (int unsigned m = 0; m < NM; m++) begin
      dec_found = 1'b0;
      for (int unsigned s = 0; s < NS; s++) begin
        if (!dec_found &&
            (({m_adr_i[m], 2'b00} & SlaveMask[s*32 +: 32]) == SlaveBase[s*32 +: 32])) begin
          dec[m][s] = 1'b1;
          dec_found   = 1'b1;
        end
      end
      dec_hit[m] = dec_found;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Slave ports: arbitration, grant lock, request mux and timeout.
  // ---------------------------------------------------------------------------------------------
  // gnt[s][m]: master m drives slave s this cycle (at most one master per slave).
  logic [NS-1:0][NM-1:0] gnt;
  // A timed-out slave answers ERR to to_owner[s][m] this cycle while its bus stays idle.
  logic [NS-1:0][NM-1:0] to_owner;

  for (genvar s = 0; s < NS; s++) begin : gen_slave
    logic [NM-1:0] req, arb_gnt, own;
    logic [NM-1:0] owner_d, owner_q;
    logic          locked_d, locked_q;
    logic          advance, beat_busy, beat_done, burst_open, to_fire, to_q;
    logic [2:0]    own_cti;
    logic          cyc, stb, we;
    logic [29:0]   adr;
    logic [31:0]   wdat;
    logic [3:0]    sel;
    logic [1:0]    bte;

    always_comb begin
      for (int unsigned m = 0; m < NM; m++) begin
        req[m] = m_cyc_i[m] & m_stb_i[m] & dec[m][s];
      end
    end

    wb_xbar_arb #(
      .NumReq    (NM),
      .PrioBudget(PrioBudget)
    ) u_arb (
      .clk_i,
      .rst_ni,
      .req_i    (req),
      .prio_i   (m_prio_i),
      .advance_i(advance),
      .gnt_o    (arb_gnt)
    );

    // A timed-out slave gets one idle cycle before anyone may own it again.
    if (RegGrant) begin : gen_grant_reg
      assign own     = to_q ? '0 : owner_q;
      // Unlocked, the next owner is the arbiter's pick of this cycle's requests (the owner's own
      // included, so it keeps the slave while alone); nobody asking leaves it parked. A timeout
      // keeps the owner one cycle more: to_owner names it.
      assign advance = !locked_d && !to_fire;
      assign owner_d = (advance && |arb_gnt) ? arb_gnt : owner_q;
    end else begin : gen_grant_comb
      logic free;
      assign free    = !locked_q && !to_q;
      assign own     = locked_q ? owner_q : (free ? arb_gnt : '0);
      assign advance = free;
      assign owner_d = (|own) ? own : owner_q;
    end

    always_comb begin
      cyc     = 1'b0;
      stb     = 1'b0;
      we      = 1'b0;
      adr     = '0;
      wdat    = '0;
      sel     = '0;
      own_cti = '0;
      bte     = '0;
      // AND-OR mux: own is one-hot or zero.
      for (int unsigned m = 0; m < NM; m++) begin
        // A parked owner's CYC only while it addresses this slave or holds its lock.
        cyc     = cyc | (own[m] & m_cyc_i[m] & (!RegGrant || dec[m][s] || locked_q));
        // A locked owner may address another slave meanwhile; only its accesses here strobe.
        stb     = stb | (own[m] & m_cyc_i[m] & m_stb_i[m] & dec[m][s]);
        we      = we | (own[m] & m_we_i[m]);
        adr     = adr | ({30{own[m]}} & m_adr_i[m]);
        wdat    = wdat | ({32{own[m]}} & m_dat_i[m]);
        sel     = sel | ({4{own[m]}} & m_sel_i[m]);
        own_cti = own_cti | ({3{own[m]}} & m_cti_i[m]);
        bte     = bte | ({2{own[m]}} & m_bte_i[m]);
      end
    end

    assign s_cyc_o[s] = cyc;
    assign s_stb_o[s] = stb;
    assign s_we_o[s]  = we;
    assign s_adr_o[s] = adr;
    assign s_dat_o[s] = wdat;
    assign s_sel_o[s] = sel;
    assign s_cti_o[s] = own_cti;
    assign s_bte_o[s] = bte;
    assign gnt[s]     = own;

    assign beat_busy  = cyc && stb;
    assign beat_done  = beat_busy && (s_ack_i[s] || s_err_i[s]);
    assign burst_open = (own_cti == CTI_CONST) || (own_cti == CTI_INCR);

    // Hold the grant until a classic/end-of-burst beat completes, CYC drops or the slave times out.
    // The lock starts with a strobe here (an arbitration win, or a parked owner's first beat).
    assign locked_d = (locked_q ? cyc : beat_busy) && !to_fire && !(beat_done && !burst_open);

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        locked_q <= 1'b0;
        owner_q  <= '0;
      end else begin
        locked_q <= locked_d;
        owner_q  <= owner_d;
      end
    end

    if (TimeoutCycles > 0) begin : gen_timeout
      localparam int unsigned CNT_W = (TimeoutCycles > 1) ? $clog2(TimeoutCycles) : 1;
      localparam logic [CNT_W-1:0] CNT_LAST = CNT_W'(TimeoutCycles - 1);

      logic [CNT_W-1:0] cnt_d, cnt_q;
      logic             to_d;

      // Counts the strobed cycles of the current beat that went unanswered.
      always_comb begin
        to_d  = 1'b0;
        cnt_d = '0;
        if (beat_busy && !beat_done) begin
          if (cnt_q == CNT_LAST) begin
            to_d = 1'b1;
          end else begin
            cnt_d = cnt_q + 1'b1;
          end
        end
      end

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          cnt_q <= '0;
          to_q  <= 1'b0;
        end else begin
          cnt_q <= cnt_d;
          to_q  <= to_d;
        end
      end
      assign to_fire = to_d;
    end else begin : gen_no_timeout
      assign to_fire = 1'b0;
      assign to_q    = 1'b0;
    end

    // owner_q still names the timed-out master: no new owner is taken while to_q is set.
    assign to_owner[s] = to_q ? owner_q : '0;
  end

  // ---------------------------------------------------------------------------------------------
  // Master ports: response mux and the ERR responder for unmapped addresses.
  // ---------------------------------------------------------------------------------------------
  logic [NM-1:0] unmapped_d, unmapped_q;

  always_comb begin
    m_dat_o    = '0;
    m_ack_o    = '0;
    m_err_o    = '0;
    unmapped_d = '0;
    for (int unsigned m = 0; m < NM; m++) begin
      // AND-OR mux: the decode row is one-hot or zero.
      for (int unsigned s = 0; s < NS; s++) begin
        m_dat_o[m] = m_dat_o[m] | ({32{dec[m][s]}} & s_dat_i[s]);
        m_ack_o[m] = m_ack_o[m] | (dec[m][s] & gnt[s][m] & s_ack_i[s]);
        m_err_o[m] = m_err_o[m] | (dec[m][s] & ((gnt[s][m] & s_err_i[s]) | to_owner[s][m]));
      end
      // Responses only count while the master still strobes this access.
      m_ack_o[m]    = m_ack_o[m] & m_cyc_i[m] & m_stb_i[m];
      m_err_o[m]    = (m_err_o[m] | unmapped_q[m]) & m_cyc_i[m] & m_stb_i[m];
      // One answer per access: a strobe held on after our ERR is a new access.
      unmapped_d[m] = m_cyc_i[m] & m_stb_i[m] & !dec_hit[m] & !unmapped_q[m];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      unmapped_q <= '0;
    end else begin
      unmapped_q <= unmapped_d;
    end
  end

endmodule

`default_nettype wire
