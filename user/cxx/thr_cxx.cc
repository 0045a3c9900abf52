// C++ on threads: std::cout (whose static init runs pthread_once, i.e. a
// futex), std::thread, std::call_once, std::mutex, std::condition_variable
// and std::async. Threads only compute; main prints after joining.
#include <condition_variable>
#include <future>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

static std::once_flag once;
static int init_count;

int main()
{
	std::cout << "hello from std::cout" << std::endl;
	std::mutex m;
	std::condition_variable cv;
	int ready = 0;
	long sum = 0;
	std::vector<std::thread> ts;
	for (int i = 0; i < 8; i++)
		ts.emplace_back([&, i] {
			std::call_once(once, [] { init_count++; });
			std::unique_lock<std::mutex> l(m);
			sum += i;
			ready++;
			cv.notify_all();
		});
	{
		std::unique_lock<std::mutex> l(m);
		cv.wait(l, [&] { return ready == 8; });
	}
	for (auto &t : ts)
		t.join();
	std::cout << "8 std::threads joined, sum " << sum << std::endl;
	std::cout << "std::call_once ran " << init_count << " time(s)" << std::endl;
	auto f = std::async(std::launch::async, [] { return 6 * 7; });
	std::cout << "std::async: " << f.get() << std::endl;
	try {
		throw std::runtime_error("caught");
	} catch (const std::exception &e) {
		std::cout << "exception: " << e.what() << std::endl;
	}
	return 0;
}
