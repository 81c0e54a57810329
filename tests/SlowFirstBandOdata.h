#pragma once
// odata text for connect runs that take seconds on LJ38, so that a test's signal finds one in
// flight: the LJ38 example's connect settings (tests/data/lj38/optim/odata) with a first DNEB band
// of 100 images run for its full 10000 iterations (an RMS tolerance of 1e-6 is not reached). One
// run takes about 4 s on one core of the development machine.
namespace landscape {

inline const char* slowFirstBandOdata() {
  return "NEWCONNECT 100 1 20.0 20.0 30 0.0 1.0D-6\n"
         "NEWNEB 100 10000 1.0D-6\n"
         "NEBK 10.0\nDIJKSTRA 1\nPERMDIST 0.01D0\nRANROT 5\nEDIFFTOL 1.0D-6\nGEOMDIFFTOL 0.2\n"
         "BFGSMIN 1.0D-6\nUPDATES 10 10\nPUSHOFF 0.02\nREOPTIMISEENDPOINTS\nBFGSSTEPS 5000\n"
         "MAXBFGS 0.2 0.2\nSTEPS 200\nBFGSTS 50 3 25 0.0001\nMAXSTEP 0.1\nMAXMAX 0.2\nTRAD 0.2\n";
}

}  // namespace landscape
