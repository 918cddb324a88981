// The message channel between the ranks of a job: how the task farm (mpi/task_farm.h) talks, kept
// apart from MPI so tests can run the farm over an in-process fake.
//
// Contract of an implementation: messages are short texts; messages from one rank to another
// arrive in the order they were sent (MPI's non-overtaking rule) and none is lost or duplicated;
// Send never waits for the receiver to call Receive (short messages are buffered). One thread per
// rank calls the channel.
#ifndef COMMSIM_MPI_CHANNEL_H_
#define COMMSIM_MPI_CHANNEL_H_

#include <optional>
#include <string>

namespace commsim::mpi {

struct Envelope {
  int from = -1;  // the sender's rank
  std::string text;
};

class Channel {
 public:
  virtual ~Channel() = default;
  virtual int rank() const = 0;  // this process's rank, 0 <= rank < size
  virtual int size() const = 0;  // number of ranks in the job
  virtual void Send(int to, const std::string& text) = 0;
  // The next message from any rank; waits for one.
  virtual Envelope Receive() = 0;
  // The next message from any rank when one has arrived, else nullopt at once.
  virtual std::optional<Envelope> Poll() = 0;
};

}  // namespace commsim::mpi

#endif  // COMMSIM_MPI_CHANNEL_H_
