// A folder of this process's own in the temporary folder ($TMPDIR, else /tmp), made with mkdtemp
// (mode 0700, a fresh name nobody else holds) and removed with everything in it on destruction:
// the place to let another program (gnuplot) write files before commsim copies what it needs.
#ifndef COMMSIM_BASE_PRIVATE_FOLDER_H_
#define COMMSIM_BASE_PRIVATE_FOLDER_H_

#include <string>

namespace commsim {

class PrivateFolder {
 public:
  // Makes `$TMPDIR/<prefix>.XXXXXX`. Throws UserError naming the temporary folder on failure.
  explicit PrivateFolder(const std::string& prefix);
  ~PrivateFolder();
  PrivateFolder(const PrivateFolder&) = delete;
  PrivateFolder& operator=(const PrivateFolder&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace commsim

#endif  // COMMSIM_BASE_PRIVATE_FOLDER_H_
